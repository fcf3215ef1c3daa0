import { expect, type Locator, type Page } from "@playwright/test";

/** The first page: one sample question with a live summary. */
export class HomePage {
  readonly page: Page;
  readonly question: Locator;
  readonly other: Locator;
  readonly summary: Locator;
  readonly submit: Locator;
  readonly reply: Locator;

  constructor(page: Page) {
    this.page = page;
    this.question = page.getByRole("group", { name: /Which features/ });
    this.other = this.question.getByRole("textbox", { name: "Other" });
    this.summary = page.locator("#summary");
    this.submit = page.getByRole("button", { name: "Submit" });
    this.reply = page.getByRole("status", { name: "Server reply" });
  }

  /** Opens the page and waits until the wasm has hydrated it. */
  async open() {
    await this.page.goto("/");
    await expect(this.page.locator("body[data-hydrated]")).toBeAttached();
  }

  option(label: string): Locator {
    return this.question.getByRole("checkbox", { name: label });
  }
}
