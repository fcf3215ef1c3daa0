import { test, expect } from "@playwright/test";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

/** Approvals and visible defaults on the answering page: a permission
 * prompt's change shown as it is, and an ask whose defaults apply when
 * nobody answers in time. */

const diff = "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,2 +1,2 @@\n-fn old() {}\n+fn new() {}\n     // unchanged, indented";

test("a permission prompt's diff is shown monospace with its whitespace", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk({
    title: "Edit src/lib.rs?",
    agent: "Claude Code · askdesk",
    questions: [{
      id: "permission", header: "Edit", question: "Claude Code wants to edit src/lib.rs.",
      options: [{ label: "Allow once", preview: diff }, { label: "Deny" }],
    }],
  });
  const ask = new AskPage(page);
  await ask.open(id);
  const preview = ask.question(/wants to edit/).locator("pre.option-preview");
  await expect(preview).toHaveText(diff);
  const style = await preview.evaluate((el) => {
    const s = getComputedStyle(el);
    return { font: s.fontFamily, space: s.whiteSpace };
  });
  expect(style.font).toMatch(/mono/i);
  expect(style.space).toBe("pre-wrap");
  await ask.radio(/wants to edit/, "Allow once").check();
  await ask.submit.click();
  await expect(ask.outcome).toContainText("Answered");
});

test("defaults: the page says what will be sent, counts down, and shows the defaults applied", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk({
    title: "Deploy window",
    agent: "e2e-agent",
    timeoutSeconds: 4,
    questions: [{ id: "when", question: "Deploy tonight?", options: [{ label: "Yes" }, { label: "No" }] }],
    defaultAnswers: [{ id: "when", selected: ["No"] }],
  });
  const ask = new AskPage(page);
  await ask.open(id);
  await expect(page.getByText(/If nobody answers by .*, the agent goes on with these default answers:/)).toBeVisible();
  const timer = page.getByRole("timer");
  await expect(timer).toBeVisible();
  const first = await timer.textContent();
  await expect.poll(() => timer.textContent(), { timeout: 5_000 }).not.toBe(first);

  await expect(ask.outcome).toContainText("Nobody answered by", { timeout: 15_000 });
  await expect(ask.outcome).toContainText("No");
  await expect(timer).toHaveCount(0);
  const stored = await api.ask(id);
  expect(stored.status).toBe("expired");
  expect(stored.defaulted).toBe(true);
  expect(stored.answers).toEqual([{ id: "when", selected: ["No"] }]);
  expect(stored.answeredBy).toBeNull();
});
