import { test, expect, type Page } from "@playwright/test";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

/** Hydration adopts, never resets: on a phone the ask bundle arrives a
 * second after the page, and whatever a person checked or typed into the
 * server-rendered form meanwhile must be what the woken form holds. The
 * page's script is held back by a route until the test lets it go. */

/** Opens the ask page with its bundle held back; the returned function
 * lets the bundle through and waits until the island has woken. */
async function openHeld(page: Page, id: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/pkg\/ask\.[0-9a-f]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // A deferred script holds DOMContentLoaded back too: wait for the form.
  await page.goto(`/asks/${id}`, { waitUntil: "commit" });
  await expect(page.getByRole("button", { name: "Submit answers" })).toBeVisible();
  return async () => {
    await expect(page.locator("body[data-hydrated]")).not.toBeAttached();
    release();
    await expect(page.locator("body[data-hydrated]")).toBeAttached();
  };
}

test("everything entered before the script arrives survives it, and joins what comes after", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  const wake = await openHeld(page, id);

  await ask.checkbox(/Which features/, "Auth").check();
  await ask.other(/Which features/).fill("Tracing");
  await ask.radio(/Which database/, "SQLite").check();
  await ask.other(/Which database/).fill("DuckDB");
  await ask.freeText(/Anything else/).fill("Ship on Friday");
  await ask.declineToggle.click();
  await ask.reason.fill("not yet");
  await wake();

  await expect(ask.checkbox(/Which features/, "Auth")).toBeChecked();
  await expect(ask.other(/Which features/)).toHaveValue("Tracing");
  await expect(ask.radio(/Which database/, "SQLite")).toBeChecked();
  await expect(ask.other(/Which database/)).toHaveValue("DuckDB");
  await expect(ask.question(/Which database/)).toContainText("Your Other text replaces the chosen option.");
  await expect(ask.freeText(/Anything else/)).toHaveValue("Ship on Friday");
  await expect(ask.reason).toHaveValue("not yet");
  await expect(ask.submit).toBeEnabled();

  // After waking, a label joins the label and text entered before.
  await ask.checkbox(/Which features/, "Logging").check();
  await ask.submit.click();
  await expect(ask.outcome).toContainText("Answered");
  expect((await api.ask(id)).answers).toEqual([
    { id: "features", selected: ["Auth", "Logging"], custom: "Tracing" },
    { id: "db", selected: [], custom: "DuckDB" },
    { id: "notes", selected: [], custom: "Ship on Friday" },
  ]);
});

for (const [order, before, after] of [
  ["a label before, text after", "label", "text"],
  ["text before, a label after", "text", "label"],
] as const) {
  test(`multi-select keeps both across the wake-up: ${order}`, async ({ page, request }) => {
    const api = new Api(request);
    const id = await api.createAsk();
    const ask = new AskPage(page);
    const wake = await openHeld(page, id);
    const enter = async (what: "label" | "text") =>
      what === "label"
        ? ask.checkbox(/Which features/, "Metrics").check()
        : ask.other(/Which features/).fill("Rate limiting");
    await enter(before);
    await ask.radio(/Which database/, "PostgreSQL").check();
    await wake();
    await enter(after);
    await ask.freeText(/Anything else/).fill("no");
    await ask.submit.click();
    await expect(ask.outcome).toContainText("Answered");
    expect((await api.ask(id)).answers[0]).toEqual({
      id: "features", selected: ["Metrics"], custom: "Rate limiting",
    });
    expect((await api.ask(id)).answers[1]).toEqual({ id: "db", selected: ["PostgreSQL"] });
  });
}

test("a decline reason typed before the script arrives is the one sent", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  const wake = await openHeld(page, id);
  await ask.declineToggle.click();
  await ask.reason.fill("Ask me after the release");
  await wake();
  await ask.decline.click();
  await expect(ask.outcome).toContainText("Declined");
  const stored = await api.ask(id);
  expect([stored.status, stored.declineReason]).toEqual(["declined", "Ask me after the release"]);
});

test("the browser's reasons name the typed value as the server's 422 does", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk({
    title: "Typed reasons",
    questions: [
      { id: "mail", question: "Whom to tell?", format: "email" },
      { id: "site", question: "Which page?", format: "uri" },
      { id: "count", question: "How many replicas?", format: "integer", minimum: 1, maximum: 10 },
      { id: "day", question: "Which day?", format: "date", minimum: "2026-01-01" },
    ],
  });
  const typed = { mail: "ada at example", site: "not a link", count: "12", day: "2025-12-31" };
  const ask = new AskPage(page);
  await ask.open(id);
  await ask.question(/Whom to tell/).getByLabel("Your answer").fill(typed.mail);
  await ask.question(/Which page/).getByLabel("Your answer").fill(typed.site);
  await ask.question(/How many replicas/).getByLabel("Your answer").fill(typed.count);
  await ask.question(/Which day/).getByLabel("Your answer").fill(typed.day);
  await expect(ask.submit).toBeDisabled();

  const refused = await request.post(`/api/v1/asks/${id}/answers`, {
    data: { answers: Object.entries(typed).map(([id, custom]) => ({ id, selected: [], custom })) },
  });
  expect(refused.status()).toBe(422);
  const messages: string[] = (await refused.json()).problems.map((p: any) => p.message);
  expect(messages).toHaveLength(4);
  for (const message of messages) {
    await expect(ask.blockers).toContainText(message);
  }
  for (const value of Object.values(typed)) {
    await expect(ask.blockers).toContainText(value);
  }
});
