// Builds the peer pages of bench/tti.sh into OUT (argument 1), laid out as
// askdesk lays out its site: scripts and CSS named by their content, and a
// brotli (-q 11) copy beside every file.
//   OUT/vanilla/index.html   hand-written page + OUT/vanilla/form.<hash>.js
//   OUT/react/index.html     React 19 renderToString + OUT/react/client.<hash>.js
// ask.json is the ask bench/serve.sh creates, which the React page renders;
// the vanilla page holds the same form by hand. PEERS_NODE_MODULES names
// the node_modules that holds esbuild and React (bench/peers/serve.sh).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");
const out = process.argv[2];
const modules = process.env.PEERS_NODE_MODULES;
if (!out || !modules) throw new Error("usage: PEERS_NODE_MODULES=… node build.mjs OUT");
const require = createRequire(join(modules, "noop.js"));
const esbuild = require("esbuild");

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "vanilla"), { recursive: true });
mkdirSync(join(out, "react"), { recursive: true });

// Writes `bytes` as dir/stem.<hash>.ext and returns that path under OUT.
const hashed = (dir, stem, ext, bytes) => {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const name = `${dir ? dir + "/" : ""}${stem}.${hash}.${ext}`;
  writeFileSync(join(out, name), bytes);
  return name;
};
const fill = (template, values) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return values[key];
  });

// The same stylesheet and icon askdesk serves.
const css = hashed("", "main", "css", readFileSync(join(repo, "style/main.css")));
writeFileSync(join(out, "favicon.svg"), readFileSync(join(repo, "public/favicon.svg")));

const common = {
  bundle: true,
  minify: true,
  write: false,
  target: "es2022",
  jsx: "automatic",
  nodePaths: [modules],
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
};

const vanilla = await esbuild.build({ ...common, entryPoints: [join(here, "vanilla/form.js")], format: "iife" });
const vanillaJs = hashed("vanilla", "form", "js", vanilla.outputFiles[0].contents);
writeFileSync(join(out, "vanilla/index.html"),
  fill(readFileSync(join(here, "vanilla/index.html"), "utf8"), { js: vanillaJs, css }));

const client = await esbuild.build({ ...common, entryPoints: [join(here, "react/client.jsx")], format: "iife" });
const reactJs = hashed("react", "client", "js", client.outputFiles[0].contents);
// The server half runs here, in Node.js, once: the HTML a React server would send.
const server = await esbuild.build({
  ...common, minify: false, entryPoints: [join(here, "react/server.jsx")], format: "cjs", platform: "node",
});
const serverFile = join(out, "react-server.cjs");
writeFileSync(serverFile, server.outputFiles[0].contents);
const { render } = require(serverFile);
rmSync(serverFile);
const ask = JSON.parse(readFileSync(join(here, "ask.json"), "utf8"));
writeFileSync(join(out, "react/index.html"), fill(readFileSync(join(here, "react/index.html"), "utf8"), {
  js: reactJs,
  css,
  form: render(ask),
  ask: JSON.stringify(ask).replace(/</g, "\\u003c"),
}));

const files = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? files(path) : [path];
});
for (const file of files(out)) {
  const br = brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.br`, br);
}
for (const file of [vanillaJs, reactJs]) {
  console.log(`${file}: ${statSync(join(out, file)).size} B, brotli ${statSync(join(out, file + ".br")).size} B`);
}
