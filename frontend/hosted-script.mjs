// askdesk's form inside an agent's host where the host runs no WebAssembly
// (its policy has neither 'wasm-unsafe-eval' nor 'unsafe-eval': VS Code's,
// Goose's, the extension's default). The `hosted` bundle beside this script
// in the document (app::hosted::document) is the richer view; this one
// starts only when a WebAssembly compile is refused, and otherwise does
// nothing.
//
// It renders nothing itself: the server renders the ask's form with the
// page's own Leptos components (the app-only tool `show_ask`), and this
// script puts that HTML in the view's element, talks to the host through
// the official `App` class of @modelcontextprotocol/ext-apps, and posts
// the form's fields back through the same tool when the person sends, as
// a browser posts the page's form without JavaScript. The server's one
// validator decides; a refusal comes back as the form with its problems
// beside their questions, the end as the page shows it. What the person
// enters is kept on the desk as they go, for a view shown again.
//
// scripts/dev.sh bundles it with esbuild into pkg/hosted-script.js.
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
} from "@modelcontextprotocol/ext-apps";

const SHOW = "show_ask";
const READ = "read_ask";
const DRAFT = "keep_draft";
// How long a change stands before the draft goes to the desk.
const DRAFT_PAUSE_MS = 400;
const READ_WAIT_SECONDS = 25;
const ROOT_ID = "askdesk-app";

/** Whether this document may compile WebAssembly: the empty module, which
 * a policy without 'wasm-unsafe-eval' refuses at once. */
function wasmRuns() {
  try {
    new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    return true;
  } catch {
    return false;
  }
}

/** The host's look: its theme and style variables, where it gives them. */
function follow(context) {
  if (context?.theme === "light" || context?.theme === "dark") applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/** A paragraph saying `text`, in place of the view. */
function say(root, text, alert) {
  const p = document.createElement("p");
  p.className = alert ? "refused" : "hosted-status";
  if (alert) p.setAttribute("role", "alert");
  p.textContent = text;
  root.replaceChildren(p);
}

/** The form's fields as a browser posts them, the pressed button's too. */
function fieldsOf(form, submitter) {
  if (!form) return [];
  return [...new FormData(form, submitter ?? undefined)].map(([name, value]) => [name, String(value)]);
}

async function start() {
  const root = document.getElementById(ROOT_ID);
  if (!root) return;
  const app = new App({ name: "askdesk", version: "1" }, {}, { autoResize: true });
  // The words the server put on the element, in the document's language.
  const words = { waiting: root.dataset.waiting ?? "", ended: root.dataset.ended ?? "" };
  let askId = null;
  let locale;
  let ended = false;
  let sending = false;
  say(root, words.waiting, false);

  const show = async (fields, send) => {
    const result = await app.callServerTool({
      name: SHOW,
      arguments: { askId, fields, send, ...(locale ? { locale } : {}) },
    });
    const shown = result.structuredContent;
    if (!shown || typeof shown.html !== "string") {
      throw new Error(result.content?.[0]?.text ?? "askdesk did not show the ask");
    }
    // The server's own rendering of the page's components, its text
    // escaped there.
    root.innerHTML = shown.html;
    ended = shown.status !== "pending";
    root.querySelector("[role=alert]")?.focus?.();
  };

  // The ask's own end, wherever it came from (the page, the terminal,
  // cancel_ask): the form gives way to it, keeping what was typed.
  const followAsk = async () => {
    let failures = 0;
    while (!ended && failures < 3) {
      try {
        const result = await app.callServerTool({
          name: READ,
          arguments: { askId, waitSeconds: READ_WAIT_SECONDS },
        });
        const ask = result.structuredContent?.Ok;
        if (ask && ask.status !== "pending" && !ended && !sending) {
          await show(fieldsOf(root.querySelector("form")), false);
        }
        failures = 0;
      } catch {
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };

  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const fields = fieldsOf(form, event.submitter);
    const buttons = [...form.querySelectorAll("button")];
    buttons.forEach((b) => (b.disabled = true));
    sending = true;
    try {
      await show(fields, true);
    } catch (error) {
      buttons.forEach((b) => (b.disabled = false));
      const p = document.createElement("p");
      p.className = "failure";
      p.setAttribute("role", "alert");
      p.textContent = String(error?.message ?? error);
      form.querySelector(".failure")?.remove();
      form.querySelector(".submit-row")?.after(p);
    } finally {
      sending = false;
    }
  });

  // What the person enters is kept on the desk as they go (keep_draft):
  // a host may unmount the view and show it again, and show_ask then
  // renders the form with it.
  let changes = 0;
  const keepDraft = () => {
    const change = ++changes;
    setTimeout(() => {
      const form = root.querySelector("form");
      if (change !== changes || ended || sending || !form) return;
      app.callServerTool({ name: DRAFT, arguments: { askId, fields: fieldsOf(form) } }).catch(() => {});
    }, DRAFT_PAUSE_MS);
  };
  root.addEventListener("input", keepDraft);
  root.addEventListener("change", keepDraft);

  // The outcome's copy buttons: the text just before each.
  root.addEventListener("click", (event) => {
    const button = event.target.closest?.(".unsent-text + button");
    if (!button) return;
    const text = button.previousElementSibling.textContent;
    navigator.clipboard?.writeText(text).catch(() => {
      getSelection()?.selectAllChildren(button.previousElementSibling);
    });
  });

  app.ontoolresult = (result) => {
    if (askId) return;
    const id = result?.structuredContent?.askId;
    if (typeof id !== "string") {
      say(root, words.ended, false);
      return;
    }
    askId = id;
    show([], false)
      .then(followAsk)
      .catch((error) => say(root, String(error?.message ?? error), true));
  };
  app.ontoolcancelled = () => {
    if (!askId) say(root, words.ended, false);
  };
  app.onhostcontextchanged = follow;
  await app.connect();
  const context = app.getHostContext();
  locale = context?.locale;
  follow(context);
}

if (!wasmRuns()) start();
