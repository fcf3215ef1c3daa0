// The README's pictures (docs/images/): a desk of the debug binary with two
// asks waiting, and one ask's page with labels checked and text typed.
// Run from the workspace: node scripts/screenshots.mjs (Debian's Chromium,
// end2end's Playwright; scripts/dev.sh build first).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(join(process.cwd(), "end2end/package.json"));
const { chromium } = require("@playwright/test");
const { announced, ASKDESK_SERVING } = require("./serving.cjs");

const dir = mkdtempSync(join(tmpdir(), "askdesk-shots-"));
const server = spawn("target/debug/askdesk", [
  "--addr", "127.0.0.1:0", "--database", join(dir, "asks.db"), "--site-root", "target/site",
], { stdio: ["ignore", "pipe", "inherit"] });
const url = await announced(server, ASKDESK_SERVING, "askdesk");

async function ask(body) {
  const reply = await fetch(`${url}/api/v1/asks`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  return (await reply.json()).id;
}

await ask({
  title: "Which test runner?", agent: "codex · billing-service",
  questions: [{ id: "runner", question: "Which runner should the CI use?",
    options: [{ label: "nextest" }, { label: "cargo test" }] }],
});
const id = await ask({
  title: "Release plan", agent: "claude-code · askdesk",
  questions: [
    { id: "features", header: "Features", question: "Which features should ship?", multiSelect: true,
      options: [{ label: "Auth", description: "Sign-in with a token" }, { label: "Logging" }, { label: "Metrics" }] },
    { id: "db", header: "Database", question: "Which database?",
      options: [{ label: "SQLite" }, { label: "PostgreSQL" }] },
  ],
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 560 } });
  await page.goto(url);
  await page.getByText("Release plan").waitFor();
  await page.screenshot({ path: "docs/images/desk.png" });
  await page.goto(`${url}/asks/${id}`);
  await page.getByLabel("Auth").check();
  await page.getByLabel("Logging").check();
  await page.locator("#features-other").fill("Audit log");
  await page.getByLabel("SQLite").check();
  await page.screenshot({ path: "docs/images/form.png", fullPage: true });
} finally {
  await browser.close();
  server.kill();
}
