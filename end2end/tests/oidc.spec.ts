import { test, expect, type Page } from "@playwright/test";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announced, ASKDESK_SERVING } from "../serving.cjs";

// Sign-in with the company's identity provider, end to end: a real OpenID
// provider (panva's oidc-provider, end2end/oidc/provider.mjs) and a desk
// of the real binary pointed at it, both started here; the browser goes
// through the provider's own login page and back.

const CLIENT_ID = "askdesk-e2e";
const CLIENT_SECRET = "e2e-client-secret-e2e-client-secret";

let dir = "";
let database = "";
let deskUrl = "";
let logged = "";
const children: ChildProcess[] = [];

function askdeskBin(): { bin: string; site: string } {
  const bin = process.env.ASKDESK_BIN;
  const site = process.env.SITE_ROOT;
  if (!bin || !site) throw new Error("ASKDESK_BIN and SITE_ROOT name the binary and its site (scripts/dev.sh test e2e)");
  return { bin, site };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Starts a process and waits for the stdout line `pattern` matches; its first group. */
function started(command: string, args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<string> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return announced(child, pattern, command, (chunk: string) => { logged += chunk; });
}

/** `askdesk people …` on the test's database: its stdout. */
function people(...args: string[]): string {
  return execFileSync(askdeskBin().bin, ["people", ...args, "--database", database], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The signed-in browsers, as `askdesk people sessions --json` lists them. */
function sessions(): { person: string }[] {
  return people("sessions", "--json").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

test.beforeAll(async () => {
  const { bin, site } = askdeskBin();
  dir = mkdtempSync(join(tmpdir(), "askdesk-oidc-"));
  database = join(dir, "desk.db");
  const port = await freePort();
  deskUrl = `http://127.0.0.1:${port}`;
  const issuer = await started(
    "node", [join(__dirname, "..", "oidc", "provider.mjs")],
    { REDIRECT_URI: `${deskUrl}/signin/oidc/callback`, CLIENT_ID, CLIENT_SECRET },
    /^oidc provider at (http:\S+)$/m,
  );
  people("add", "alice", "--email", "alice@askdesk.test");
  await started(
    bin,
    ["--addr", `127.0.0.1:${port}`, "--public-url", deskUrl, "--database", database, "--site-root", site,
      "--oidc-issuer", issuer, "--oidc-client-id", CLIENT_ID],
    { ASKDESK_OIDC_CLIENT_SECRET: CLIENT_SECRET },
    ASKDESK_SERVING,
  );
});

test.afterAll(() => {
  for (const child of children) child.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
  // What the desk (and the provider) wrote holds neither the client's
  // secret, nor a token, nor a cookie.
  expect(logged).not.toContain(CLIENT_SECRET);
  expect(logged).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  expect(logged).not.toMatch(/askdesk_(oidc|session)=/);
});

/** From the desk's `path`, through the provider's login page, as `login`. */
async function signInAs(page: Page, login: string, path = "/") {
  await page.goto(`${deskUrl}${path}`);
  await expect(page).toHaveURL(/\/signin(\?|$)/);
  await page.getByRole("link", { name: "Sign in with 127.0.0.1" }).click();
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The provider asks once whether askdesk may have the email.
  await page.getByRole("button", { name: "Continue" }).click();
}

/** The sign-in page's reason, once the browser is back on it. */
async function refusedWith(page: Page, failed: string, reason: RegExp) {
  await expect(page).toHaveURL(`${deskUrl}/signin?failed=${failed}`);
  await expect(page.getByRole("alert")).toHaveText(reason);
  expect(sessions()).toEqual([]);
}

test("a person signs in with the identity provider, lands where they were going, and signs out", async ({ page }) => {
  await signInAs(page, "alice", "/history");
  await expect(page).toHaveURL(`${deskUrl}/history`);
  await expect(page.getByText("Signed in as alice")).toBeVisible();
  expect(sessions().map((s) => s.person)).toEqual(["alice"]);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto(`${deskUrl}/`);
  await expect(page).toHaveURL(/\/signin(\?|$)/);
  expect(sessions()).toEqual([]);
});

test("a verified email no person has is refused, and nobody is created", async ({ page }) => {
  await signInAs(page, "bob");
  await refusedWith(page, "stranger", /no person of this desk has that email address/);
  expect(people("list")).not.toContain("bob");
});

test("an ID token past its expiry is refused", async ({ page }) => {
  await signInAs(page, "expired-alice");
  await refusedWith(page, "provider", /did not succeed/);
});

test("an ID token changed after it was signed is refused", async ({ page }) => {
  await signInAs(page, "tampered-alice");
  await refusedWith(page, "provider", /did not succeed/);
});

test("an email the provider did not verify is refused", async ({ page }) => {
  await signInAs(page, "unverified-alice");
  await refusedWith(page, "unverified", /did not say your email address is verified/);
});
