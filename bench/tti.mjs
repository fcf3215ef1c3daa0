// Loads ASK_URL 30 times in fresh browser contexts and reports the time from
// navigation start until `data-hydrated` appears on <body>.
import { chromium } from "../end2end/node_modules/playwright-core/index.mjs";

const url = process.env.ASK_URL;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const times = [];
for (let i = 0; i < 31; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Runs before any page script; records when hydration marks the body.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.body?.hasAttribute("data-hydrated")) {
        window.__interactiveAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  });
  await page.goto(url);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  const at = await page.evaluate(() => window.__interactiveAt);
  if (i > 0) times.push(at); // the first load warms the server and the OS cache
  await context.close();
}
await browser.close();
times.sort((a, b) => a - b);
const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
console.log(`time to interactive over ${times.length} loads (ms): ` +
  `min ${times[0].toFixed(0)}, median ${pick(0.5).toFixed(0)}, p90 ${pick(0.9).toFixed(0)}, max ${times[times.length - 1].toFixed(0)}`);
