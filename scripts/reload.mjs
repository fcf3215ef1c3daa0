// The live-reload end of `scripts/dev.sh watch`: the WebSocket that
// Leptos' <AutoReload> script in every page connects to (as cargo-leptos
// serves it, at ws://<host>:<port>/live_reload), telling each page to reload
// whenever this process gets SIGHUP, which the watch sends once the rebuilt
// server answers. Listens on loopback only.
//   node scripts/reload.mjs PORT
import { createRequire } from "node:module";

// From the tools' node_modules, which the watch names in NODE_PATH (an
// import would not look there).
const { WebSocketServer } = createRequire(import.meta.url)("ws");

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: node scripts/reload.mjs PORT");
  process.exit(2);
}
const server = new WebSocketServer({ host: "127.0.0.1", port, path: "/live_reload" });
server.on("listening", () => console.log(`live reload on ws://127.0.0.1:${port}/live_reload`));
process.on("SIGHUP", () => {
  for (const page of server.clients) page.send(JSON.stringify({ all: true }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
