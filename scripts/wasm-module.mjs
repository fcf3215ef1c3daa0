// Writes a bundle's one file: wasm-bindgen's JavaScript with the wasm in it,
// as a string of one character per byte, and `compileWasm()`, which compiles
// it. `scripts/dev.sh` runs this once per bundle:
//   node scripts/wasm-module.mjs GLUE.js BUNDLE.wasm OUT.js
//
// Why one file: on a repeat visit the browser's memory cache serves a
// module script at once, while a `fetch` of the wasm goes to the HTTP cache
// and its bytes reach the compiler in tasks queued behind the parser and
// the first paint (see `island_script` in app/src/lib.rs for the figures).
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
//
// The names added, `wasmSource` and `compileWasm`, are none of
// wasm-bindgen's top-level ones (its unminified JavaScript has a
// `wasmModule`).
import { readFileSync, writeFileSync } from "node:fs";

const [glue, wasm, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node scripts/wasm-module.mjs GLUE.js BUNDLE.wasm OUT.js");
  process.exit(2);
}

// What a double-quoted string literal cannot hold as itself. Every other
// character up to U+00FF may stand in a literal, NUL and C1 controls
// included (U+2028 and U+2029, the other line terminators, are above it).
const ESCAPES = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
const bytes = readFileSync(wasm);
const chars = new Array(bytes.length);
for (let i = 0; i < bytes.length; i++) chars[i] = ESCAPES[bytes[i]] ?? String.fromCharCode(bytes[i]);

const module = `
const wasmSource = "${chars.join("")}";
/** The bundle's wasm, compiled: \`init({ module_or_path: compileWasm() })\`. */
export function compileWasm() {
  const bytes = Uint8Array.fromBase64
    ? Uint8Array.fromBase64(btoa(wasmSource))
    : Uint8Array.from(wasmSource, (c) => c.charCodeAt(0));
  try {
    return new WebAssembly.Module(bytes);
  } catch (error) {
    if (error instanceof RangeError) return WebAssembly.compile(bytes);
    throw error;
  }
}
`;
writeFileSync(out, readFileSync(glue, "utf8").trimEnd() + "\n" + module);
