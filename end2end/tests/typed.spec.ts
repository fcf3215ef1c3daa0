import { test, expect } from "@playwright/test";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

/** Typed answers: optionless questions with a format get the browser's own
 * input, and the one validator decides what is accepted. */
const typedAsk = {
  title: "Typed answers",
  agent: "e2e-agent",
  questions: [
    { id: "count", question: "How many replicas?", format: "integer", minimum: 1, maximum: 10, default: 3 },
    { id: "day", question: "Which day to release?", format: "date", minimum: "2026-01-01" },
    { id: "mail", question: "Whom to tell?", format: "email" },
  ],
};

test("typed questions show native inputs, refuse what is out of range, and send text", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk(typedAsk);
  const ask = new AskPage(page);
  await ask.open(id);

  const count = ask.question(/How many replicas/).getByRole("spinbutton", { name: "Your answer" });
  await expect(count).toHaveAttribute("type", "number");
  await expect(count).toHaveAttribute("min", "1");
  await expect(count).toHaveAttribute("max", "10");
  await expect(count).toHaveAttribute("step", "1");
  await expect(count).toHaveValue("3");
  const day = ask.question(/Which day/).getByLabel("Your answer");
  await expect(day).toHaveAttribute("type", "date");
  await expect(day).toHaveAttribute("min", "2026-01-01");
  const mail = ask.question(/Whom to tell/).getByRole("textbox", { name: "Your answer" });
  await expect(mail).toHaveAttribute("type", "email");

  await count.fill("12");
  await day.fill("2026-12-24");
  await mail.fill("ada@example.com");
  await expect(ask.submit).toBeDisabled();
  await expect(ask.blockers).toContainText("the answer must be at most 10; 12 is more");

  await count.fill("7");
  await expect(ask.submit).toBeEnabled();
  await ask.submit.click();
  await expect(ask.outcome).toContainText("Answered");
  const stored = await api.ask(id);
  expect(stored.answers).toEqual([
    { id: "count", selected: [], custom: "7" },
    { id: "day", selected: [], custom: "2026-12-24" },
    { id: "mail", selected: [], custom: "ada@example.com" },
  ]);
});

test("the API refuses a typed answer and an unknown format with the field and the rule", async ({ request }) => {
  const api = new Api(request);
  const id = await api.createAsk(typedAsk);
  const refused = await request.post(`/api/v1/asks/${id}/answers`, {
    data: { answers: [
      { id: "count", selected: [], custom: "eleven" },
      { id: "day", selected: [], custom: "2025-12-31" },
      { id: "mail", selected: [], custom: "ada@example.com" },
    ] },
  });
  expect(refused.status()).toBe(422);
  const body = await refused.json();
  expect(body.problems.map((p: any) => [p.path, p.code])).toEqual([
    ["answers[0].custom", "invalid_format"],
    ["answers[1].custom", "out_of_range"],
  ]);
  expect((await api.ask(id)).status).toBe("pending");

  const unknown = await request.post("/api/v1/asks", {
    data: { questions: [{ id: "c", question: "Colour?", format: "colour" }] },
  });
  expect(unknown.status()).toBe(422);
  expect((await unknown.json()).problems[0]).toMatchObject({ path: "questions[0].format", code: "unknown_format" });
});
