import { test, expect, type Page } from "@playwright/test";
import { Api } from "../pages/api";

/** The form on a phone's width: every question's legend (its header chip
 * and its text) sits wholly inside its box, every kind of text box is as
 * wide as the others, and nothing scrolls sideways. Measured from the
 * laid-out page, not compared as pixels. */
const longAsk = {
  title: "Release plan",
  agent: "e2e-agent",
  questions: [
    {
      id: "features", header: "Features",
      question: "Which of these features should ship in the release we are cutting this week, given the open issues?",
      multiSelect: true,
      options: [{ label: "Auth", description: "Sign-in with a token" }, { label: "Logging" }],
    },
    { id: "count", header: "Replicas", question: "How many replicas should run after the release?", format: "integer", minimum: 1, maximum: 10 },
    { id: "day", question: "Which day should it go out?", format: "date" },
    { id: "mail", question: "Whom should we tell when it is out?", format: "email" },
    { id: "notes", question: "Anything else we should know?" },
  ],
};

async function boxes(page: Page) {
  return page.evaluate(() => {
    const rect = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width };
    };
    return {
      questions: [...document.querySelectorAll("fieldset.question")].map((fieldset) => ({
        box: rect(fieldset),
        legend: rect(fieldset.querySelector("legend")!),
        inputs: [...fieldset.querySelectorAll(".other input, .free-text input, .free-text textarea")].map(rect),
      })),
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
    };
  });
}

for (const width of [390, 320]) {
  test(`at ${width} px the legends sit inside their boxes and nothing scrolls sideways`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 800 });
    const id = await new Api(request).createAsk(longAsk);
    await page.goto(`/asks/${id}`);
    await expect(page.locator("body[data-hydrated]")).toBeAttached();
    const laid = await boxes(page);
    expect(laid.scrollWidth).toBeLessThanOrEqual(laid.width);
    const widths = new Set<number>();
    for (const { box, legend, inputs } of laid.questions) {
      // Wholly inside: below the box's top border, within its sides.
      expect(legend.top).toBeGreaterThan(box.top);
      expect(legend.bottom).toBeLessThan(box.bottom);
      expect(legend.left).toBeGreaterThanOrEqual(box.left);
      expect(legend.right).toBeLessThanOrEqual(box.right);
      for (const input of inputs) {
        expect(input.right).toBeLessThanOrEqual(box.right);
        widths.add(Math.round(input.width));
      }
    }
    // The Other box, the number, date and email inputs and the textarea: one width.
    expect([...widths]).toHaveLength(1);
  });
}
