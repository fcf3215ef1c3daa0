import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { AskPage } from "../pages/ask";
import { Api } from "../pages/api";

async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

test("axe finds no violations on the desk, the answering page and its outcome", async ({ page, request }) => {
  const api = new Api(request);
  const id = await api.createAsk();
  await page.goto("/");
  expect(await violations(page)).toEqual([]);

  const ask = new AskPage(page);
  await ask.open(id);
  expect(await violations(page)).toEqual([]);

  // With the reasons list, an override note and the decline box open.
  await ask.radio(/Which database/, "SQLite").check();
  await ask.other(/Which database/).fill("DuckDB");
  await ask.declineToggle.click();
  expect(await violations(page)).toEqual([]);

  await ask.checkbox(/Which features/, "Auth").check();
  await ask.freeText(/Anything else/).fill("none");
  await ask.submit.click();
  await expect(ask.outcome).toContainText("Answered");
  expect(await violations(page)).toEqual([]);

  await page.goto("/signin");
  expect(await violations(page)).toEqual([]);
  await page.goto("/history?q=release");
  expect(await violations(page)).toEqual([]);
  await page.goto("/asks/0123456789abcdef0123456789abcdef");
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violations on a refused plain form post", async ({ page, request }) => {
  // axe needs JavaScript in the page, so keep JavaScript on but never let
  // the wasm load: the form posts itself, as it does without JavaScript.
  await page.route(/\/pkg\/ask\.[0-9a-f]+\.js$/, (route) => route.abort());
  const api = new Api(request);
  const id = await api.createAsk();
  const ask = new AskPage(page);
  await ask.open(id, { hydrated: false });
  await ask.submit.click();
  await expect(page.getByRole("alert")).toContainText("not accepted");
  expect(await violations(page)).toEqual([]);
});
