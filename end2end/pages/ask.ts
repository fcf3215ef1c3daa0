import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";

/** The answering page of one ask, `/asks/{id}`; or the same form where
 * `scope` shows it (the MCP App's frame in a host page). */
export class AskPage {
  readonly submit: Locator;
  readonly blockers: Locator;
  readonly declineToggle: Locator;
  readonly reason: Locator;
  readonly decline: Locator;
  readonly outcome: Locator;

  constructor(readonly page: Page, readonly scope: Page | FrameLocator = page) {
    this.submit = scope.getByRole("button", { name: "Submit answers" });
    this.blockers = scope.locator("#blockers");
    this.declineToggle = scope.getByText("Decline to answer");
    this.reason = scope.getByRole("textbox", { name: "Reason for the agent (optional)" });
    this.decline = scope.getByRole("button", { name: "Decline", exact: true });
    this.outcome = scope.getByRole("region", { name: /Answered|Declined|Withdrawn|Expired/ });
  }

  /** Opens the page; with JavaScript, waits until the wasm has hydrated it. */
  /** Opens the ask's page; the page's response. */
  async open(id: string, { hydrated = true } = {}) {
    const response = await this.page.goto(`/asks/${id}`);
    if (hydrated) await expect(this.page.locator("body[data-hydrated]")).toBeAttached();
    return response;
  }

  question(name: RegExp | string): Locator {
    return this.scope.getByRole("group", { name });
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
