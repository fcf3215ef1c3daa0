import { test, expect, type Page } from "@playwright/test";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

/** Fails the test on any page error, console error (CSP violations among them) or failed request. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  return problems;
}

const combined = { id: "features", selected: ["Auth", "Logging"], custom: "Rate limiting" };

test("check then type: labels and Other text reach the agent together", async ({ page, request }) => {
  const problems = watch(page);
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  await ask.open(id);
  await expect(ask.submit).toBeDisabled();
  await expect(ask.blockers).toContainText("Features: unanswered");

  await ask.checkbox(/Which features/, "Logging").check();
  await ask.checkbox(/Which features/, "Auth").check();
  await ask.other(/Which features/).fill("Rate limiting");
  await ask.radio(/Which database/, "SQLite").check();
  await ask.freeText(/Anything else/).fill("Ship on Friday");
  await expect(ask.submit).toBeEnabled();
  await ask.submit.click();

  await expect(ask.outcome).toContainText("The answers reached the agent");
  await expect(ask.outcome).toContainText("Rate limiting");
  const stored = await api.ask(id);
  expect(stored.status).toBe("answered");
  expect(stored.answers).toEqual([
    combined,
    { id: "db", selected: ["SQLite"] },
    { id: "notes", selected: [], custom: "Ship on Friday" },
  ]);
  expect(stored.projection.structured.answers[0]).toEqual(combined);
  expect(problems).toEqual([]);
});

test("type then check: Other text typed first survives checking labels", async ({ page, request }) => {
  const problems = watch(page);
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  await ask.open(id);

  await ask.other(/Which features/).fill("Rate limiting");
  await ask.checkbox(/Which features/, "Auth").check();
  await ask.checkbox(/Which features/, "Logging").check();
  await expect(ask.other(/Which features/)).toHaveValue("Rate limiting");
  // Single-select: Other text overrides the radio, and the page says so.
  await ask.radio(/Which database/, "SQLite").check();
  await ask.other(/Which database/).fill("DuckDB");
  await expect(ask.question(/Which database/)).toContainText("Your Other text replaces the chosen option.");
  await ask.freeText(/Anything else/).fill("none");
  await ask.submit.click();

  await expect(ask.outcome).toContainText("Answered");
  const stored = await api.ask(id);
  expect(stored.answers[0]).toEqual(combined);
  expect(stored.answers[1]).toEqual({ id: "db", selected: [], custom: "DuckDB" });
  expect(problems).toEqual([]);
});

test("declining sends the reason and the ask cannot be answered again", async ({ page, request }) => {
  const problems = watch(page);
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  await ask.open(id);
  await ask.declineToggle.click();
  await ask.reason.fill("Not my decision");
  await ask.decline.click();
  await expect(ask.outcome).toContainText("You declined to answer");
  await expect(ask.outcome).toContainText("Not my decision");
  const stored = await api.ask(id);
  expect(stored.status).toBe("declined");
  expect(stored.declineReason).toBe("Not my decision");

  // Opening it again shows the outcome, read-only (and nothing to hydrate).
  await ask.open(id, { hydrated: false });
  await expect(ask.outcome).toContainText("Declined");
  await expect(ask.submit).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("the keyboard alone answers and submits", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  await ask.open(id);
  const k = page.keyboard;
  await k.press("Tab");
  await expect(ask.checkbox(/Which features/, "Auth")).toBeFocused();
  await k.press("Space");
  await k.press("Tab");
  await k.press("Tab");
  await expect(ask.checkbox(/Which features/, "Metrics")).toBeFocused();
  await k.press("Space");
  await k.press("Tab");
  await expect(ask.other(/Which features/)).toBeFocused();
  await k.type("Rate limiting");
  await k.press("Tab");
  await expect(ask.radio(/Which database/, "SQLite")).toBeFocused();
  await k.press("ArrowDown");
  await expect(ask.radio(/Which database/, "PostgreSQL")).toBeChecked();
  await k.press("Tab");
  await k.press("Tab");
  await expect(ask.freeText(/Anything else/)).toBeFocused();
  await k.type("Typed with keys only");
  await k.press("Tab");
  await expect(ask.submit).toBeFocused();
  await k.press("Enter");
  await expect(ask.outcome).toContainText("Answered");
  const stored = await api.ask(id);
  expect(stored.answers[0]).toEqual({ id: "features", selected: ["Auth", "Metrics"], custom: "Rate limiting" });
  expect(stored.answers[1]).toEqual({ id: "db", selected: ["PostgreSQL"] });
});

test("the desk lists pending asks newest first and links to them", async ({ page, request }) => {
  const api = new Api(request);
  const run = Date.now();
  const older = await api.createAsk({ title: `Older e2e ask ${run}`, questions: [{ id: "q", question: "?" }] });
  const newer = await api.createAsk({ title: `Newer e2e ask ${run}`, questions: [{ id: "q", question: "?" }] });
  await page.goto("/");
  const links = page.getByRole("link", { name: new RegExp(`e2e ask ${run}$`) });
  await expect(links.first()).toHaveText(`Newer e2e ask ${run}`);
  await expect(page.getByRole("link", { name: `Older e2e ask ${run}` })).toHaveAttribute("href", `/asks/${older}`);
  await links.first().click();
  await expect(page).toHaveURL(new RegExp(`/asks/${newer}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Newer e2e ask ${run}`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form posts, the server validates, and nothing typed is lost", async ({ page, request }) => {
    const api = new Api(request);
    const id = await api.createAsk();
    const ask = new AskPage(page);
    await ask.open(id, { hydrated: false });
    await expect(page.locator("body[data-hydrated]")).toHaveCount(0);

    // First an incomplete answer: the server refuses it and shows why.
    await ask.other(/Which features/).fill("Rate limiting");
    await ask.checkbox(/Which features/, "Auth").check();
    await ask.submit.click();
    await expect(page.getByRole("alert")).toContainText("The answers were not accepted");
    await expect(ask.question(/Which database/)).toContainText("choose an option or write an answer");
    await expect(ask.other(/Which features/)).toHaveValue("Rate limiting");
    await expect(ask.checkbox(/Which features/, "Auth")).toBeChecked();

    // Then completed and accepted.
    await ask.checkbox(/Which features/, "Logging").check();
    await ask.radio(/Which database/, "SQLite").check();
    await ask.freeText(/Anything else/).fill("No JS here");
    await ask.submit.click();
    await expect(page).toHaveURL(new RegExp(`/asks/${id}$`));
    await expect(ask.outcome).toContainText("Answered");
    const stored = await api.ask(id);
    expect(stored.answers[0]).toEqual(combined);
    expect(stored.answers[2]).toEqual({ id: "notes", selected: [], custom: "No JS here" });
  });

  test("declining works as a plain form post too", async ({ page, request }) => {
    const api = new Api(request);
    const id = await api.createAsk();
    const ask = new AskPage(page);
    await ask.open(id, { hydrated: false });
    await ask.declineToggle.click();
    await ask.reason.fill("Busy");
    await ask.decline.click();
    await expect(ask.outcome).toContainText("Declined");
    expect((await api.ask(id)).declineReason).toBe("Busy");
  });
});

test("an ask open in two tabs takes one answer; the second tab is shown the first", async ({ browser, request }) => {
  const api = new Api(request);
  const id = await api.createAsk();
  const [first, second] = [
    new AskPage(await browser.newPage()),
    // The second tab may use the clipboard, for the copy button below.
    new AskPage(await browser.newPage({ permissions: ["clipboard-read", "clipboard-write"] })),
  ];
  await first.open(id);
  await second.open(id);
  for (const [tab, db] of [[first, "SQLite"], [second, "PostgreSQL"]] as const) {
    await tab.checkbox(/Which features/, "Metrics").check();
    await tab.radio(/Which database/, db).check();
    await tab.freeText(/Anything else/).fill(`from ${db}`);
  }
  await first.submit.click();
  await expect(first.outcome).toContainText("Answered");
  // The second tab hears of it at once, without submitting, and keeps
  // what was typed there.
  await expect(second.outcome).toContainText("Answered");
  await expect(second.outcome).toContainText("from SQLite");
  await expect(second.page.getByRole("alert")).toContainText("they were not sent");
  const unsent = second.page.getByRole("region", { name: "What you typed (not sent)" });
  await expect(unsent).toContainText("from PostgreSQL");
  // Its copy button puts the text on the clipboard.
  await unsent.getByRole("button", { name: "Copy" }).click();
  await expect.poll(() => second.page.evaluate(() => navigator.clipboard.readText())).toBe("from PostgreSQL");
  const stored = await api.ask(id);
  expect(stored.answers[1]).toEqual({ id: "db", selected: ["SQLite"] });
});
