// Drops from a bundle's wasm the exports of wasm-bindgen classes that no
// code of the bundle can reach, and the Rust code only they kept, with
// binaryen's wasm-metadce (on PATH, from the npm binaryen that
// scripts/dev.sh installs). The site's build runs this between
// wasm-bindgen and wasm-opt (xtask/src/site/bundle.rs):
//   node scripts/wasm-dead-exports.mjs GLUE.js BUNDLE_bg.wasm
//
// Why: Leptos always enables server_fn's browser client, which depends on
// wasm-streams, and wasm-streams exports three classes to JavaScript
// (IntoUnderlyingSink, IntoUnderlyingSource, IntoUnderlyingByteSource).
// An export is a root that no optimiser may remove, so their methods and
// everything they call stayed in every bundle though no bundle streams.
//
// A class is dead when nothing hands one of its objects to JavaScript
// (wasm-bindgen's glue then has no `Class.__wrap`) and it has no
// constructor (no `static __wrap` and no `constructor(`), so no instance
// can exist and no method of it can be called; the bundle's own script
// (scripts/wasm-module.mjs) imports only `hydrate`, the islands and the
// init functions. Every other export stays a root.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const [glue, wasm] = process.argv.slice(2);
if (!wasm) {
  console.error("usage: node scripts/wasm-dead-exports.mjs GLUE.js BUNDLE_bg.wasm");
  process.exit(2);
}
const js = readFileSync(glue, "utf8");
const classes = [...js.matchAll(/^export class (\w+) \{$/gm)].map((m) => m[1]);
const body = (name) => {
  const start = js.indexOf(`export class ${name} {`);
  const end = js.indexOf("\n}\n", start);
  return js.slice(start, end);
};
const dead = classes.filter(
  (name) => !js.includes(`${name}.__wrap(`) && !/\bconstructor\(|static __wrap\(/.test(body(name)),
);
const exports = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(wasm))).map((e) => e.name);
// wasm-bindgen names a class's exports `<class>_<method>` and
// `__wbg_<class>_free`, the class in lower case.
const prefixes = dead.map((name) => name.toLowerCase() + "_");
const isDead = (name) => prefixes.some((p) => name.startsWith(p) || name.startsWith("__wbg_" + p));
const kept = exports.filter((name) => !isDead(name));
if (kept.length === exports.length) process.exit(0);

const graph = [
  { name: "js", root: true, reaches: kept.map((name) => `export:${name}`) },
  ...kept.map((name) => ({ name: `export:${name}`, export: name })),
];
const graphFile = `${wasm}.graph.json`;
writeFileSync(graphFile, JSON.stringify(graph));
execFileSync("wasm-metadce", [
  wasm, "--graph-file", graphFile, "-o", wasm,
  "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-reference-types",
  // Keeps the function names for twiggy; wasm-opt strips them after.
  "--debuginfo",
], { stdio: ["ignore", "ignore", "inherit"] });
console.log(`${wasm}: dropped ${exports.length - kept.length} exports of ${dead.join(", ")}`);
