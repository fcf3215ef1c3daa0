import { test, expect, type Page } from "@playwright/test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

// askdesk's form inside an agent's host (MCP Apps): the agent's MCP client
// is the official TypeScript SDK's (2026-07-28, declaring the extension),
// the host page frames the resource's document and talks to it through
// the official AppBridge (end2end/host), and the person answers in the
// frame.

const base = () => process.env.BASE_URL ?? "http://127.0.0.1:3000";
const HOST = "http://apps-host.test/";
const UI = { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } };

const twoOrders = {
  title: "Hosted form",
  questions: [
    {
      id: "labelsFirst", header: "First", question: "Which features, labels first?", multiSelect: true,
      options: [{ label: "Auth" }, { label: "Logging" }, { label: "Metrics" }],
    },
    {
      id: "textFirst", header: "Second", question: "Which features, text first?", multiSelect: true,
      options: [{ label: "Auth" }, { label: "Logging" }, { label: "Metrics" }],
    },
  ],
};

async function agent(extensions: object | undefined): Promise<Client> {
  const client = new Client(
    { name: "askdesk-e2e-agent", version: "1.0.0" },
    { mode: "auto", capabilities: extensions ? { extensions } : {} },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)));
  return client;
}

let bridgeScript = "";
test.beforeAll(() => {
  const out = join(tmpdir(), `askdesk-apps-host-${process.pid}.js`);
  execFileSync("esbuild", [
    "--bundle", "--format=iife", "--global-name=AppsHost", "--platform=browser",
    "--log-level=warning", `--outfile=${out}`, "host/bridge.ts",
  ]);
  bridgeScript = readFileSync(out, "utf8") + readFileSync("host/host.js", "utf8");
});

/** Opens the host page and shows the view of `ask_user`'s `result` in it;
 * returns the errors the page and the view report. */
async function host(page: Page, client: Client, args: object, result: any, { wasm = true, look = {} } = {}) {
  const errors: string[] = [];
  const tools = (await client.listTools()).tools;
  const ask = tools.find((t) => t.name === "ask_user")!;
  const uri = (ask._meta as any).ui.resourceUri;
  const read = await client.readResource({ uri });
  const content: any = read.contents[0];
  expect(content.mimeType).toBe(RESOURCE_MIME_TYPE);
  await page.route(HOST, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!DOCTYPE html><html><body><script>${bridgeScript.replaceAll("</script", "<\\/script")}</script></body></html>`,
    }));
  await page.exposeFunction("hostCallTool", (params: any) => client.callTool(params));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(HOST);
  await page.evaluate((app) => (window as any).showApp(app), {
    html: content.text, csp: content._meta?.ui?.csp, wasm, input: args, result, tools, locale: "en-US", look,
  });
  return errors;
}

test("to a host that shows MCP Apps, ask_user lists its view, and the view's own tools are for the app alone", async () => {
  const plain = await agent(undefined);
  const names = (await plain.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(["ask_user", "await_answer", "cancel_ask"]);
  // Nor may it call them.
  await expect(plain.callTool({ name: "read_ask", arguments: { askId: "x" } })).rejects.toThrow(/no tool/);
  await plain.close();

  const client = await agent(UI);
  const tools = (await client.listTools()).tools;
  const ui = (name: string) => (tools.find((t) => t.name === name)?._meta as any)?.ui;
  expect(ui("ask_user")).toEqual({ resourceUri: "ui://askdesk/ask", visibility: ["model", "app"] });
  for (const name of ["read_ask", "answer_in_app"]) {
    expect(ui(name)).toEqual({ resourceUri: "ui://askdesk/ask", visibility: ["app"] });
  }
  const resources = (await client.listResources()).resources;
  expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([["ui://askdesk/ask", RESOURCE_MIME_TYPE]]);
  const read: any = (await client.readResource({ uri: "ui://askdesk/ask" })).contents[0];
  expect(read._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  // ChatGPT reads its own key, with the same domains in its names.
  expect(read._meta["openai/widgetCSP"]).toEqual({ connect_domains: [], resource_domains: [], frame_domains: [], redirect_domains: [] });
  // Self-contained: nothing is loaded from elsewhere.
  expect(read.text).not.toMatch(/<script[^>]* src=|<link[^>]* href=/);
  await client.close();
});

test("the person answers in the conversation: labels and Other text stay together whichever comes first, and the agent gets both", async ({ page, request }) => {
  const client = await agent(UI);
  const started = Date.now();
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  // It returned at once, with the ask for the view.
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(result.structuredContent.status).toBe("pending");
  const id = result.structuredContent.askId;
  expect(result.content[0].text).toContain("await_answer");

  const errors = await host(page, client, twoOrders, result);
  const form = new AskPage(page, page.frameLocator("iframe"));
  // Labels first, then the text.
  await form.checkbox(/labels first/, "Auth").check();
  await form.checkbox(/labels first/, "Metrics").check();
  await form.other(/labels first/).fill("and audit logs");
  // The text first, then labels.
  await form.other(/text first/).fill("tracing too");
  await form.checkbox(/text first/, "Logging").check();
  await expect(form.other(/text first/)).toHaveValue("tracing too");
  await expect(form.checkbox(/labels first/, "Auth")).toBeChecked();
  await form.submit.click();
  await expect(form.outcome).toContainText("Answered");

  const answered: any = await client.callTool({ name: "await_answer", arguments: { askId: id } });
  expect(answered.structuredContent.answers).toEqual([
    { id: "labelsFirst", selected: ["Auth", "Metrics"], custom: "and audit logs" },
    { id: "textFirst", selected: ["Logging"], custom: "tracing too" },
  ]);
  const stored = await new Api(request).ask(id);
  expect([stored.via, stored.answeredBy]).toEqual(["mcp-app", null]);
  expect(errors).toEqual([]);
  await client.close();
});

test("the view takes the host's theme and style variables, and follows a change of theme", async ({ page }) => {
  const client = await agent(UI);
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  const look = {
    theme: "dark",
    styles: { variables: { "--color-background-primary": "rgb(1, 2, 3)", "--font-sans": "monospace" } },
  };
  const errors = await host(page, client, twoOrders, result, { look });
  const frame = page.frameLocator("iframe");
  const form = new AskPage(page, frame);
  await expect(form.checkbox(/labels first/, "Auth")).toBeVisible();
  const root = frame.locator("html");
  await expect(root).toHaveAttribute("data-theme", "dark");
  await expect(frame.locator("body")).toHaveCSS("background-color", "rgb(1, 2, 3)");
  await expect(frame.locator("body")).toHaveCSS("font-family", "monospace");
  // The host's own colours stand for the page's: a question's text is the
  // dark theme's, the host having given no text colour.
  await expect(frame.locator("legend").first()).toHaveCSS("color", "rgb(232, 233, 238)");
  await page.evaluate(() => (window as any).appBridge.setHostContext({ theme: "light" }));
  await expect(root).toHaveAttribute("data-theme", "light");
  await expect(frame.locator("legend").first()).toHaveCSS("color", "rgb(27, 29, 35)");
  expect(errors).toEqual([]);
  await client.callTool({ name: "cancel_ask", arguments: { askId: result.structuredContent.askId } });
  await client.close();
});

test("the person may decline in the conversation, with a reason for the agent", async ({ page }) => {
  const client = await agent(UI);
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  await host(page, client, twoOrders, result);
  const form = new AskPage(page, page.frameLocator("iframe"));
  await form.declineToggle.click();
  await form.reason.fill("not my call");
  await form.decline.click();
  await expect(form.outcome).toContainText("Declined");
  const declined: any = await client.callTool({
    name: "await_answer", arguments: { askId: result.structuredContent.askId },
  });
  expect([declined.structuredContent.status, declined.structuredContent.reason]).toEqual(["declined", "not my call"]);
  await client.close();
});

test("when the ask ends elsewhere, the view shows how, keeping what was typed", async ({ page }) => {
  const client = await agent(UI);
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  const id = result.structuredContent.askId;
  await host(page, client, twoOrders, result);
  const form = new AskPage(page, page.frameLocator("iframe"));
  await form.other(/labels first/).fill("typed before it was withdrawn");
  await client.callTool({ name: "cancel_ask", arguments: { askId: id } });
  await expect(form.outcome).toContainText("Withdrawn");
  await expect(page.frameLocator("iframe").getByText("typed before it was withdrawn")).toBeVisible();
  await client.close();
});

test("a host whose policy runs no WebAssembly shows why the form did not start", async ({ page }) => {
  const client = await agent(UI);
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  const errors = await host(page, client, twoOrders, result, { wasm: false });
  await expect(page.frameLocator("iframe").getByText(/runs no WebAssembly/)).toBeVisible();
  expect(errors.join("\n")).toMatch(/Content Security Policy/);
  await client.callTool({ name: "cancel_ask", arguments: { askId: result.structuredContent.askId } });
  await client.close();
});
