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

// The hosts the view is tried under (host/host.js POLICIES): Claude's runs
// WebAssembly, so the view is the hosted bundle; the others refuse it, so
// the view is the server-rendered form the hosted script drives.
const HOSTS = ["claude", "vscode", "goose", "reference"] as const;
type Host = (typeof HOSTS)[number] | "none";
const runsWasm = (host: Host) => host === "claude";

/** Opens the host page and shows the view of `ask_user`'s `result` in it
 * under `policy`'s host; returns the errors the page and the view report,
 * but for the host's refusal to compile WebAssembly, which is expected
 * where its policy says so. */
async function host(page: Page, client: Client, args: object, result: any, { policy = "claude" as Host, look = {} } = {}) {
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
  const refused = /WebAssembly|Content Security Policy/;
  const report = (text: string) => {
    if (runsWasm(policy) || policy === "none" || !refused.test(text)) errors.push(text);
  };
  page.on("console", (m) => { if (m.type() === "error") report(m.text()); });
  page.on("pageerror", (e) => report(String(e)));
  await page.goto(HOST);
  await page.evaluate((app) => (window as any).showApp(app), {
    html: content.text, csp: content._meta?.ui?.csp, policy, input: args, result, tools, locale: "en-US", look,
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
  for (const name of ["read_ask", "answer_in_app", "show_ask", "keep_draft"]) {
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

for (const policy of HOSTS) {
  test.describe(`under ${policy}'s policy`, () => {
    test("the person answers in the conversation: labels and Other text stay together whichever comes first, and the agent gets both", async ({ page, request }) => {
      const client = await agent(UI);
      const started = Date.now();
      const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
      // It returned at once, with the ask for the view.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.structuredContent.status).toBe("pending");
      const id = result.structuredContent.askId;
      expect(result.content[0].text).toContain("await_answer");

      const errors = await host(page, client, twoOrders, result, { policy });
      const form = new AskPage(page, page.frameLocator("iframe"));
      await expect(form.checkbox(/labels first/, "Auth")).toBeVisible();
      // The WebAssembly view checks as the person goes; the server-rendered
      // form is checked by the server when sent.
      if (runsWasm(policy)) await expect(form.submit).toBeDisabled();
      else await expect(form.submit).toBeEnabled();
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

    test("the person may decline in the conversation, with a reason for the agent", async ({ page }) => {
      const client = await agent(UI);
      const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
      const errors = await host(page, client, twoOrders, result, { policy });
      const form = new AskPage(page, page.frameLocator("iframe"));
      await form.declineToggle.click();
      await form.reason.fill("not my call");
      await form.decline.click();
      await expect(form.outcome).toContainText("Declined");
      const declined: any = await client.callTool({
        name: "await_answer", arguments: { askId: result.structuredContent.askId },
      });
      expect([declined.structuredContent.status, declined.structuredContent.reason]).toEqual(["declined", "not my call"]);
      expect(errors).toEqual([]);
      await client.close();
    });

    test("when the ask ends elsewhere, the view shows how, keeping what was typed", async ({ page }) => {
      const client = await agent(UI);
      const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
      const id = result.structuredContent.askId;
      const errors = await host(page, client, twoOrders, result, { policy });
      const form = new AskPage(page, page.frameLocator("iframe"));
      await form.other(/labels first/).fill("typed before it was withdrawn");
      await client.callTool({ name: "cancel_ask", arguments: { askId: id } });
      await expect(form.outcome).toContainText("Withdrawn");
      await expect(page.frameLocator("iframe").getByText("typed before it was withdrawn")).toBeVisible();
      expect(errors).toEqual([]);
      await client.close();
    });

    test("what the person entered comes back when the host shows the view again, and goes once answered", async ({ page }) => {
      const client = await agent(UI);
      const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
      const id = result.structuredContent.askId;
      const errors = await host(page, client, twoOrders, result, { policy });
      const form = new AskPage(page, page.frameLocator("iframe"));
      await form.other(/text first/).fill("typed before the view went");
      await form.checkbox(/text first/, "Logging").check();
      await form.checkbox(/labels first/, "Auth").check();
      // Kept on the desk, for this ask and this client.
      const kept = async () =>
        ((await client.callTool({ name: "keep_draft", arguments: { askId: id } })).structuredContent as any).fields;
      await expect.poll(kept).toEqual(expect.arrayContaining([
        ["answer.labelsFirst", "Auth"],
        ["answer.textFirst", "Logging"],
        ["other.textFirst", "typed before the view went"],
      ]));
      await page.evaluate(() => (window as any).showAgain());
      await expect(form.other(/text first/)).toHaveValue("typed before the view went");
      await expect(form.checkbox(/text first/, "Logging")).toBeChecked();
      await expect(form.checkbox(/labels first/, "Auth")).toBeChecked();
      await form.submit.click();
      await expect(form.outcome).toContainText("Answered");
      const answered: any = await client.callTool({ name: "await_answer", arguments: { askId: id } });
      expect(answered.structuredContent.answers).toEqual([
        { id: "labelsFirst", selected: ["Auth"] },
        { id: "textFirst", selected: ["Logging"], custom: "typed before the view went" },
      ]);
      expect(await kept()).toEqual([]);
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
      const errors = await host(page, client, twoOrders, result, { policy, look });
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
  });
}

for (const policy of HOSTS.filter((h) => !runsWasm(h))) {
  test(`under ${policy}'s policy a refused answer shows its problems beside their questions, and the corrected one goes`, async ({ page }) => {
    const client = await agent(UI);
    const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
    const errors = await host(page, client, twoOrders, result, { policy });
    const form = new AskPage(page, page.frameLocator("iframe"));
    await form.other(/text first/).fill("kept through the refusal");
    await form.submit.click();
    // Nothing was given for the first question: the server says so there.
    await expect(form.question(/labels first/).locator(".problems")).toBeVisible();
    await expect(form.question(/text first/).locator(".problems")).toHaveCount(0);
    await expect(form.other(/text first/)).toHaveValue("kept through the refusal");
    await form.checkbox(/labels first/, "Logging").check();
    await form.submit.click();
    await expect(form.outcome).toContainText("Answered");
    const answered: any = await client.callTool({
      name: "await_answer", arguments: { askId: result.structuredContent.askId },
    });
    expect(answered.structuredContent.answers).toEqual([
      { id: "labelsFirst", selected: ["Logging"] },
      { id: "textFirst", selected: [], custom: "kept through the refusal" },
    ]);
    expect(errors).toEqual([]);
    await client.close();
  });
}

test("a host whose policy runs no scripts shows why the form did not start", async ({ page }) => {
  const client = await agent(UI);
  const result: any = await client.callTool({ name: "ask_user", arguments: twoOrders });
  const errors = await host(page, client, twoOrders, result, { policy: "none" });
  await expect(page.frameLocator("iframe").getByText(/runs no scripts/)).toBeVisible();
  expect(errors.join("\n")).toMatch(/Content Security Policy/);
  await client.callTool({ name: "cancel_ask", arguments: { askId: result.structuredContent.askId } });
  await client.close();
});
