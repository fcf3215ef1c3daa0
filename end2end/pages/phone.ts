import { type Locator, type Page } from "@playwright/test";

/** `/signin`: the desk's pages ask for a token once. */
export class SignInPage {
  readonly token: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.token = page.getByLabel("Token");
    this.submit = page.getByRole("button", { name: "Sign in", exact: true });
  }

  async signIn(token: string) {
    await this.token.fill(token);
    await this.submit.click();
  }
}

/** `/phone`: a QR code of a new one-time sign-in link, and the signed-in devices. */
export class PhonePage {
  readonly code: Locator;
  readonly link: Locator;
  readonly unreachable: Locator;
  readonly devices: Locator;

  constructor(readonly page: Page) {
    this.code = page.getByRole("img", { name: "QR code of the link" });
    this.link = page.getByLabel("Or copy the link");
    this.unreachable = page.getByRole("note");
    this.devices = page.getByRole("region", { name: "Signed-in devices" });
  }

  /** The listed device whose line says `text` (how it signed in). */
  device(text: string): Locator {
    return this.devices.getByRole("listitem").filter({ hasText: text });
  }
}

/** `/signin/link/{code}`: where the phone lands from the code. */
export class LinkPage {
  readonly signIn: Locator;
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.signIn = page.getByRole("button", { name: "Sign in on this device" });
    this.heading = page.getByRole("heading", { level: 1 });
  }
}
