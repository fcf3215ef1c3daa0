// Writes a bundle's one file: a classic script holding wasm-bindgen's
// JavaScript, the wasm as a string of one character per byte, and the few
// lines that compile the wasm and wake the page. The site's build runs this
// once per bundle (xtask/src/site/bundle.rs), with esbuild on its PATH:
//   node scripts/wasm-module.mjs [--inline] GLUE.js BUNDLE.wasm OUT.js
// With --inline the file may also stand as the text of an inline
// `<script>` in HTML (the hosted form's document, app::hosted): see
// INLINE_ESCAPES below.
//
// Why one file: on a repeat visit the browser's memory cache serves a
// script at once, while a `fetch` of the wasm goes to the HTTP cache and
// its bytes reach the compiler in tasks queued behind the parser and the
// first paint (see `IslandScripts` in app/src/lib.rs for the figures).
//
// Why a classic script (`<script defer>` in the head) and not a module: it
// runs in the parser's last task, before the page's first layout; the
// module script ran after it (`IslandScripts` again, with the figures).
//
// Why it waits for a paint when none came yet (a repeat visit, the script
// from the cache): the compile and the wake would otherwise come before
// the first paint, and the person would see nothing until the page is
// interactive; the server-rendered form works before it wakes, and
// hydration adopts what was entered (bench/tti.mjs: first paint and first
// input). A hidden page, which paints nothing, wakes at once.
//
// Why Latin-1: each byte is one character, so the file is the wasm plus the
// escapes below and two bytes of UTF-8 per byte at or above 0x80 (about 4%
// more brotli than the wasm alone; base64 would be 30% more), and the
// browser turns it back into bytes natively: `btoa` reads a Latin-1 string,
// `Uint8Array.fromBase64` decodes what it writes. A loop over `charCodeAt`
// is the fallback for browsers without `fromBase64`.
//
// The compile is synchronous: `WebAssembly.compile` puts a task between the
// bytes and the instance, which waits behind the page's other work (about
// 15 ms on a repeat visit here). Browsers that refuse to compile a module
// this size on the main thread (Chrome once refused above 4 KB, and still
// does above 8 MB) get the asynchronous compile, which `init` awaits.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const args = process.argv.slice(2);
const inline = args[0] === "--inline";
const [glue, wasm, out] = inline ? args.slice(1) : args;
if (!out) {
  console.error("usage: node scripts/wasm-module.mjs GLUE.js BUNDLE.wasm OUT.js");
  process.exit(2);
}

// Stands for the wasm's string while esbuild minifies the script around
// it: esbuild would write the string's bytes above 0x7F as escapes.
const PLACEHOLDER = '"@wasm@"';

// Wakes the page: `hydrate` sets up Leptos' islands mode, then every
// Leptos island hydrates from the export its `data-component` names, as
// Leptos' own island script does.
const entry = `
import * as bundle from "./${basename(glue)}";
const wasmSource = ${PLACEHOLDER};
const bytes = Uint8Array.fromBase64
  ? Uint8Array.fromBase64(btoa(wasmSource))
  : Uint8Array.from(wasmSource, (c) => c.charCodeAt(0));
const wake = () => {
  bundle.hydrate();
  for (const island of document.querySelectorAll("leptos-island")) {
    bundle[island.dataset.component]?.(island);
  }
};
const start = () => {
  let module;
  try {
    module = new WebAssembly.Module(bytes);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  if (module) {
    bundle.initSync({ module });
    wake();
  } else {
    bundle.default({ module_or_path: WebAssembly.compile(bytes) }).then(wake);
  }
};
if (performance.getEntriesByType("paint").length || document.visibilityState === "hidden") {
  start();
} else {
  requestAnimationFrame(() => setTimeout(start));
}
`;
const entryPath = join(dirname(glue), `${basename(glue, ".js")}.entry.mjs`);
writeFileSync(entryPath, entry);
// No "use strict": wasm-bindgen's JavaScript, written as a module, does not
// need it (its `this` is in class bodies, strict anyway, and in
// handleError's `f.apply(this, args)`, whose functions never read it), and
// the bundle was slower with it: the same file with and without the
// directive, loaded in turn, 199 against 181, 227 against 210 and 258
// against 225 ms to interactive at CPU 1× (medians of 20 cold loads).
const script = execFileSync(
  "esbuild",
  ["--bundle", "--format=iife", "--minify", "--log-level=warning", entryPath],
  { encoding: "utf8" },
);
// The script without the wasm, beside the glue: bench/size.sh shows its bytes.
writeFileSync(join(dirname(glue), `${basename(glue, ".js")}.min.js`), script);
const parts = script.split(PLACEHOLDER);
if (parts.length !== 2) {
  throw new Error(`esbuild's output holds ${parts.length - 1} copies of ${PLACEHOLDER}, not 1`);
}

// What a double-quoted string literal cannot hold as itself. Every other
// character up to U+00FF may stand in a literal, NUL and C1 controls
// included (U+2028 and U+2029, the other line terminators, are above it).
const ESCAPES = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
// Inside an inline `<script>`, HTML reads two more bytes differently: the
// parser turns NUL into U+FFFD, and `<` may start `</script` or `<!--`.
// esbuild's own output holds neither; in the wasm they are escapes (NUL as
// `\0`, or `\x00` before a digit, where `\0` would start an octal escape).
const INLINE_ESCAPES = { ...ESCAPES, 0x3c: "\\x3C" };
const escapes = inline ? INLINE_ESCAPES : ESCAPES;
const isDigit = (byte) => byte >= 0x30 && byte <= 0x39;
const bytes = readFileSync(wasm);
const chars = new Array(bytes.length);
for (let i = 0; i < bytes.length; i++) {
  chars[i] = inline && bytes[i] === 0 ? (isDigit(bytes[i + 1]) ? "\\x00" : "\\0")
    : escapes[bytes[i]] ?? String.fromCharCode(bytes[i]);
}
writeFileSync(out, parts.join(`"${chars.join("")}"`));
