import { test, expect, type Page } from "@playwright/test";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

/** What the page fetched of the site's files (JS, wasm, CSS): bytes over the wire, per URL. */
async function siteTransfers(page: Page): Promise<{ name: string; bytes: number; encoded: number }[]> {
  return page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((e) => /\/pkg\/.*\.(js|wasm|css)$/.test(new URL(e.name).pathname))
      .map((e) => ({ name: new URL(e.name).pathname, bytes: e.transferSize, encoded: e.encodedBodySize })),
  );
}

test("a repeat visit downloads nothing of the bundle, the first one gets it compressed, and the style is in the page", async ({ page, request }) => {
  const api = new Api(request);
  const ask = new AskPage(page);
  const compressed: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/pkg/")) compressed.push(`${new URL(r.url()).pathname} ${r.headers()["content-encoding"] ?? "identity"}`);
  });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });

  const response = await ask.open(await api.createAsk());
  const first = await siteTransfers(page);
  // Only the ask page's bundle (its JavaScript, with the wasm in it), named
  // by its content's hash, and announced in the page's response head; the
  // stylesheet is in the page, so the first paint waits for no request.
  const names = [...new Set(first.map((f) => f.name))];
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^\/pkg\/ask\.[0-9a-f]{16}\.js$/);
  expect(response?.headers()["link"]).toBe(`<${names[0]}>; rel=preload; as=script`);
  // Each downloaded once: the preload and the script make one request.
  expect(first.map((f) => f.name)).toEqual(names);
  for (const f of first) expect(f.bytes, f.name).toBeGreaterThan(0);
  for (const line of compressed) expect(line).toMatch(/ br$/);
  // The style applies: its hash is in the page's policy, and nothing was refused.
  await expect(page.locator("body")).toHaveCSS("margin-top", "0px");
  expect(violations).toEqual([]);

  // Another ask, as a person answering their next question would open it.
  await ask.open(await api.createAsk());
  const repeat = await siteTransfers(page);
  expect(new Set(repeat.map((f) => f.name)).size).toBe(1);
  for (const f of repeat) expect(f.bytes, `${f.name} came from the cache`).toBe(0);
});

test("pages without an island load no JavaScript or wasm, and a page with one loads only its own bundle", async ({ page, request }) => {
  const api = new Api(request);
  const finished = await api.createAsk();
  const cancelled = await request.delete(`/api/v1/asks/${finished}`);
  expect(cancelled.status()).toBe(200);
  const code: string[] = [];
  page.on("request", (r) => {
    if (["script", "fetch"].includes(r.resourceType()) || /\.(js|wasm)$/.test(new URL(r.url()).pathname)) code.push(r.url());
  });
  for (const path of [`/asks/${finished}`, "/signin", "/no/such/page"]) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.locator("h1")).toBeVisible();
  }
  expect(code).toEqual([]);

  // The pending ask's page runs the ask page's bundle, the desk the desk's;
  // each wakes its island. (The desk also prefetches the ask page's, which
  // it does not run: see the next test.)
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  for (const [path, own] of [[`/asks/${await api.createAsk()}`, "ask"], ["/", "desk"]]) {
    scripts.length = 0;
    await page.goto(path);
    await expect(page.locator("body[data-hydrated]")).toBeAttached();
    const bundles = new Set(scripts.map((u) => new URL(u).pathname).filter((p) => p.startsWith("/pkg/")));
    expect([...bundles].map((p) => p.replace(/\.[0-9a-f]{16}\./, ".")).sort(), path).toEqual([`/pkg/${own}.js`]);
  }
});

test("the desk prefetches the ask page's bundle, so the first ask opened after it downloads none of it", async ({ page, request }) => {
  const api = new Api(request);
  const problems: string[] = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const prefetched = page.waitForEvent("requestfinished", (r) => /\/pkg\/ask\.[0-9a-f]{16}\.js$/.test(r.url()));
  await page.goto("/");
  await expect(page.locator("body[data-hydrated]")).toBeAttached();
  await prefetched;

  const ask = new AskPage(page);
  await ask.open(await api.createAsk());
  const bundle = (await siteTransfers(page)).filter((f) => f.name.endsWith(".js"));
  expect(bundle).toHaveLength(1);
  expect(bundle[0].bytes, "the bundle came from the cache").toBe(0);
  expect(problems, "no policy refused the prefetch").toEqual([]);
});

// The bundle carries its wasm as a string of one character per byte
// (scripts/wasm-module.mjs). Browsers without `Uint8Array.fromBase64`
// (new in 2024 and 2025) turn it into bytes with a loop; those that refuse
// to compile a module this size on the main thread (Chrome once refused
// above 4 KB) compile it asynchronously. Either way the wasm runs:
// the list of what blocks submitting is written by it alone.
const olderBrowsers: { browser: string; older: () => void; refusals: number }[] = [
  {
    browser: "without Uint8Array.fromBase64",
    older: () => {
      delete (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64;
    },
    refusals: 0,
  },
  {
    browser: "that refuses a synchronous compile",
    older: () => {
      const w = window as unknown as { refused: number };
      WebAssembly.Module = new Proxy(WebAssembly.Module, {
        construct() {
          w.refused = (w.refused ?? 0) + 1;
          throw new RangeError("WebAssembly.Compile is disallowed on the main thread");
        },
      });
    },
    refusals: 1,
  },
];
for (const { browser, older, refusals } of olderBrowsers) {
  test(`the ask page wakes in a browser ${browser}`, async ({ page, request }) => {
    const api = new Api(request);
    const ask = new AskPage(page);
    await page.addInitScript(older);
    await ask.open(await api.createAsk());
    await expect(ask.blockers).toContainText("Features: unanswered");
    const refused = await page.evaluate(() => (window as unknown as { refused?: number }).refused ?? 0);
    expect(refused).toBe(refusals);
  });
}
