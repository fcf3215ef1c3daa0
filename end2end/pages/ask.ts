import { expect, type Locator, type Page } from "@playwright/test";

/** The answering page of one ask, `/asks/{id}`. */
export class AskPage {
  readonly submit: Locator;
  readonly blockers: Locator;
  readonly declineToggle: Locator;
  readonly reason: Locator;
  readonly decline: Locator;
  readonly outcome: Locator;

  constructor(readonly page: Page) {
    this.submit = page.getByRole("button", { name: "Submit answers" });
    this.blockers = page.locator("#blockers");
    this.declineToggle = page.getByText("Decline to answer");
    this.reason = page.getByRole("textbox", { name: "Reason for the agent (optional)" });
    this.decline = page.getByRole("button", { name: "Decline", exact: true });
    this.outcome = page.getByRole("region", { name: /Answered|Declined|Withdrawn|Expired/ });
  }

  /** Opens the page; with JavaScript, waits until the wasm has hydrated it. */
  async open(id: string, { hydrated = true } = {}) {
    await this.page.goto(`/asks/${id}`);
    if (hydrated) await expect(this.page.locator("body[data-hydrated]")).toBeAttached();
  }

  question(name: RegExp | string): Locator {
    return this.page.getByRole("group", { name });
  }

  checkbox(question: RegExp | string, label: string): Locator {
    return this.question(question).getByRole("checkbox", { name: label, exact: true });
  }

  radio(question: RegExp | string, label: string): Locator {
    return this.question(question).getByRole("radio", { name: label, exact: true });
  }

  other(question: RegExp | string): Locator {
    return this.question(question).getByRole("textbox", { name: "Other" });
  }

  freeText(question: RegExp | string): Locator {
    return this.question(question).getByRole("textbox", { name: "Your answer" });
  }
}
