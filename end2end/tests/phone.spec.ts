import { test, expect, type Page } from "@playwright/test";
import { LinkPage, PhonePage, SignInPage } from "../pages/phone";

// The desk with a token that scripts/dev.sh starts beside the open one.
function tokenDesk(): { url: string; token: string } {
  const url = process.env.TOKEN_URL;
  const token = process.env.DESK_TOKEN;
  if (!url || !token) throw new Error("TOKEN_URL and DESK_TOKEN name the desk with a token (scripts/dev.sh test e2e)");
  return { url, token };
}

/** Collects page errors, console errors (CSP violations among them) and failed requests. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  return problems;
}

test("the desk's QR link signs one phone in, once, and the desk can sign it out", async ({ browser }) => {
  const desk = tokenDesk();
  const laptop = await browser.newContext({ baseURL: desk.url });
  const page = await laptop.newPage();
  const laptopProblems = watch(page);
  await page.goto("/");
  await new SignInPage(page).signIn(desk.token);
  await expect(page.getByRole("heading", { name: /Waiting for you/ })).toBeVisible();

  await page.getByRole("link", { name: "Sign in on your phone" }).click();
  const phonePage = new PhonePage(page);
  await expect(phonePage.code).toBeVisible();
  // The SVG drew: the page's policy let the image in.
  await expect.poll(() => phonePage.code.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // The test's desk is on 127.0.0.1, which no phone reaches: the page says so.
  await expect(phonePage.unreachable).toContainText("A phone cannot reach this link");
  const link = await phonePage.link.inputValue();
  expect(link).toMatch(new RegExp(`^${desk.url}/signin/link/[0-9a-f]{32}$`));

  // The phone: a browser of its own, signed in to nothing.
  const phone = await browser.newContext();
  const phonePageTab = await phone.newPage();
  const phoneProblems = watch(phonePageTab);
  const landing = new LinkPage(phonePageTab);
  const opened = await phonePageTab.goto(link);
  expect(opened?.status()).toBe(200);
  await expect(landing.heading).toHaveText("Sign in on this device");
  await landing.signIn.click();
  await expect(phonePageTab).toHaveURL(`${desk.url}/`);
  await expect(phonePageTab.getByRole("heading", { name: /Waiting for you/ })).toBeVisible();

  // A third device with the same link: refused, signed in to nothing.
  const late = await browser.newContext();
  const lateTab = await late.newPage();
  const refused = await lateTab.goto(link);
  expect(refused?.status()).toBe(410);
  await expect(new LinkPage(lateTab).heading).toHaveText("This sign-in link was used already");
  await expect(new LinkPage(lateTab).signIn).toHaveCount(0);
  await lateTab.goto(`${desk.url}/`);
  await expect(lateTab).toHaveURL(/\/signin$/);

  // The laptop lists the phone, opened by the link, and signs it out.
  await page.reload();
  const listed = phonePage.device("Signed in by a phone link");
  await expect(listed).toHaveCount(1);
  await listed.getByRole("button", { name: "Sign out" }).click();
  await expect(phonePage.device("Signed in by a phone link")).toHaveCount(0);
  await expect(phonePage.device("this device")).toHaveCount(1);
  await phonePageTab.reload();
  await expect(phonePageTab).toHaveURL(/\/signin$/);

  expect(laptopProblems).toEqual([]);
  expect(phoneProblems).toEqual([]);
  await Promise.all([laptop.close(), phone.close(), late.close()]);
});
