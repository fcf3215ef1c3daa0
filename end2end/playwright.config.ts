import { defineConfig } from "@playwright/test";

// Runs against a server that `scripts/dev.sh test e2e` starts and names in
// BASE_URL (xtask/src/suites/servers.rs, which adds the junit reporter for
// the run's summary).
// The browser is Debian's Chromium: never `npx playwright install`.
export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  workers: 1,
  forbidOnly: true,
  reporter: [["list"]],
  use: {
    baseURL: process.env.BASE_URL ?? "http://127.0.0.1:3000",
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ],
    },
  },
});
