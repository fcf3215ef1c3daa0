import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announced, ASKDESK_SERVING } from "../serving.cjs";

// The consent page of askdesk's own authorization server, as a person
// meets it when claude.ai or ChatGPT connects: sent from another site,
// signed in (their session comes back by the desk's own page), asked in
// English or Chinese, answered by keyboard; the client's callback, a real
// HTTP server on another origin, receives the code or the refusal.

let dir = "";
let database = "";
let deskUrl = "";
let aliceToken = "";
let callbackServer: Server | undefined;
let callbackBase = "";
const children: ChildProcess[] = [];
const received: URLSearchParams[] = [];

function askdeskBin(): { bin: string; site: string } {
  const bin = process.env.ASKDESK_BIN;
  const site = process.env.SITE_ROOT;
  if (!bin || !site) throw new Error("ASKDESK_BIN and SITE_ROOT name the binary and its site (scripts/dev.sh test e2e)");
  return { bin, site };
}

function people(...args: string[]): string {
  return execFileSync(askdeskBin().bin, ["people", ...args, "--database", database], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

test.beforeAll(async () => {
  const { bin, site } = askdeskBin();
  dir = mkdtempSync(join(tmpdir(), "askdesk-oauth-"));
  database = join(dir, "desk.db");
  aliceToken = people("add", "alice").trim();
  // The client's own site: `localhost`, another site than the desk's
  // 127.0.0.1. It links to the desk (as claude.ai's page does) and
  // receives the redirect.
  callbackServer = createHttpServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/callback") {
      received.push(url.searchParams);
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><title>client</title><h1>Back at the client</h1>");
    } else {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`<!doctype html><title>client</title><a href="${url.searchParams.get("to")}">Connect askdesk</a>`);
    }
  });
  await new Promise<void>((listening) => callbackServer!.listen(0, "127.0.0.1", listening));
  const address = callbackServer.address();
  if (!address || typeof address === "string") throw new Error("no port");
  callbackBase = `http://localhost:${address.port}`;
  const child = spawn(bin, ["--addr", "127.0.0.1:0", "--database", database, "--site-root", site],
    { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  deskUrl = await announced(child, ASKDESK_SERVING, "askdesk");
});

test.afterAll(() => {
  for (const child of children) child.kill();
  callbackServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function base64url(bytes: Buffer): string {
  return bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Registers a client (RFC 7591) and makes its authorization request: the
 * URL the person's browser opens, and what the exchange needs. */
async function authorization(name: string) {
  const registered = await fetch(`${deskUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: [`${callbackBase}/callback`] }),
  });
  expect(registered.status).toBe(201);
  const clientId: string = (await registered.json()).client_id;
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(8));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: `${callbackBase}/callback`,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    state,
    resource: `${deskUrl}/mcp`,
  });
  return { url: `${deskUrl}/oauth/authorize?${query}`, clientId, verifier, state };
}

async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** Signs alice in on the desk's own sign-in page. */
async function signIn(page: Page) {
  await page.goto(`${deskUrl}/signin`);
  await page.getByLabel("Token").fill(aliceToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Signed in as alice")).toBeVisible();
}

/** Tabs from the top of the page to the button named `name`, and presses Enter. */
async function pressByKeyboard(page: Page, name: string) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    if (focused === name) {
      await page.keyboard.press("Enter");
      return;
    }
  }
  throw new Error(`no button ${name} by Tab`);
}

test("a person sent from the client's site allows it by keyboard, and the client's token reaches /mcp", async ({ page }) => {
  await signIn(page);
  const { url, clientId, verifier, state } = await authorization("E2E client");
  // From the client's own page, another site: the session cookie is
  // withheld on that navigation, and comes back on the desk's next step.
  await page.goto(`${callbackBase}/start?to=${encodeURIComponent(url)}`);
  await page.getByRole("link", { name: "Connect askdesk" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect E2E client to askdesk?");
  await expect(page.getByText("Unverified name.")).toBeVisible();
  await expect(page.getByText("You are signed in as alice.")).toBeVisible();
  expect(await violations(page)).toEqual([]);

  const before = received.length;
  await page.keyboard.press("Home");
  await pressByKeyboard(page, "Allow");
  await expect(page.getByRole("heading", { name: "Back at the client" })).toBeVisible();
  const sent = received[before];
  expect(sent.get("state")).toBe(state);
  expect(sent.get("iss")).toBe(deskUrl);
  const code = sent.get("code");
  expect(code).toBeTruthy();

  const tokens = await fetch(`${deskUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code", code: code!, code_verifier: verifier, client_id: clientId,
      redirect_uri: `${callbackBase}/callback`, resource: `${deskUrl}/mcp`,
    }),
  });
  expect(tokens.status).toBe(200);
  const access: string = (await tokens.json()).access_token;
  const initialized = await fetch(`${deskUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${access}`, "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
      protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } } }),
  });
  expect(initialized.status).toBe(200);

  // The phone page lists it, and disconnects it.
  await page.goto(`${deskUrl}/phone`);
  const connected = page.getByRole("region", { name: "Connected applications" });
  await expect(connected).toContainText("E2E client, as the agent e2e-client-alice");
  await connected.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByText("No application is connected as your agent.")).toBeVisible();
  const refused = await fetch(`${deskUrl}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(refused.status).toBe(401);
});

test("the consent page speaks Chinese, axe finds nothing, and Deny tells the client access_denied", async ({ page }) => {
  await signIn(page);
  const { url, state } = await authorization("第二个客户端");
  await page.goto(`${deskUrl}/lang/zh?back=${encodeURIComponent(url.slice(deskUrl.length))}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("把 第二个客户端 连接到 askdesk？");
  await expect(page.getByText("名称未经验证。")).toBeVisible();
  expect(await violations(page)).toEqual([]);
  const before = received.length;
  await page.keyboard.press("Home");
  await pressByKeyboard(page, "拒绝");
  await expect(page.getByRole("heading", { name: "Back at the client" })).toBeVisible();
  const sent = received[before];
  expect(sent.get("error")).toBe("access_denied");
  expect(sent.get("state")).toBe(state);
  expect(sent.get("code")).toBeNull();
  await page.goto(`${deskUrl}/lang/en?back=/`);
});

test("a browser signed in to nothing signs in first and comes back to the question", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { url } = await authorization("Third client");
  await page.goto(url);
  await expect(page).toHaveURL(/\/signin\?next=/);
  await page.getByLabel("Token").fill(aliceToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect Third client to askdesk?");
  await context.close();
});

/** A loopback port free right now. */
async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((listening) => probe.listen(0, "127.0.0.1", listening));
  const address = probe.address();
  await new Promise((closed) => probe.close(closed));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

test("the official conformance suite's authorization scenarios pass through the consent page", async ({ page }) => {
  test.setTimeout(120_000);
  // Version 0.2 of the suite needs Node 22, which the registry's `node`
  // package brings (end2end/package.json pins both).
  const modules = join(__dirname, "..", "node_modules");
  const node = join(modules, "node", "bin", "node");
  const suite = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
  const port = await freePort();
  const registered = await fetch(`${deskUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Conformance", redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" }),
  });
  expect(registered.status).toBe(201);
  const clientId: string = (await registered.json()).client_id;
  await signIn(page);
  const results = join(dir, "conformance");
  const run = spawn(node, [suite, "authorization", "--url", deskUrl, "--client-id", clientId,
    "--resource", `${deskUrl}/mcp`, "-p", String(port), "-o", results], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(run);
  let out = "";
  run.stderr.on("data", (chunk) => { out += chunk; });
  const exited = new Promise<number | null>((done) => run.on("exit", done));
  const authorizeUrl = await new Promise<string>((found, failed) => {
    run.stdout.on("data", (chunk) => {
      out += chunk;
      const url = new RegExp(`^(${deskUrl}/oauth/authorize\\?\\S+)$`, "m").exec(out);
      if (url) found(url[1]);
    });
    run.on("exit", () => failed(new Error(`the suite ended before it asked:\n${out}`)));
  });
  // Its callback listens once the URL is printed; the person reads the
  // page before answering anyway.
  await page.goto(authorizeUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect Conformance to askdesk?");
  await page.keyboard.press("Home");
  await pressByKeyboard(page, "Allow");
  await expect(page.getByText("OK. You can close this page.")).toBeVisible();
  expect(await exited, out).toBe(0);
  expect(out).toMatch(/Total: [1-9]\d* passed, 0 failed/);
});
