import { test, expect } from "@playwright/test";
import { HomePage } from "../pages/home";

test("the server-rendered question hydrates, keeps labels and Other text, and round-trips through a server function", async ({ page }) => {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });

  const home = new HomePage(page);
  await home.open();
  await expect(home.summary).toHaveText("unanswered");
  await expect(home.submit).toBeDisabled();

  await home.other.fill("Rate limiting");
  await home.option("Logging").check();
  await home.option("Auth").check();
  await expect(home.summary).toHaveText('Auth, Logging + "Rate limiting"');

  await home.submit.click();
  await expect(home.reply).toHaveText(
    'The server accepted Auth, Logging + "Rate limiting".',
  );
  // Submitted by the server function, not by a full-page form post.
  await expect(home.other).toHaveValue("Rate limiting");
  expect(problems).toEqual([]);
});
