// A static server for the peer pages, on a free loopback port, sending what
// askdesk sends for the same kinds of file: the brotli copy when the client
// takes it, pages never cached, content-named files cached for good.
//   node bench/peers/serve.mjs ROOT   (prints "peers are serving on URL")
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const root = normalize(process.argv[2] + sep);
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

const server = createServer(async (request, response) => {
  let path = decodeURIComponent(new URL(request.url, "http://peer").pathname);
  if (path.endsWith("/")) path += "index.html";
  const file = normalize(join(root, path));
  const type = types[extname(file)];
  if (!file.startsWith(root) || !type) {
    response.writeHead(404).end();
    return;
  }
  const headers = {
    "content-type": type,
    "cache-control": type.startsWith("text/html") ? "no-store" : "public, max-age=31536000, immutable",
    vary: "accept-encoding",
  };
  let body;
  try {
    if (/\bbr\b/.test(request.headers["accept-encoding"] ?? "")) {
      body = await readFile(`${file}.br`);
      headers["content-encoding"] = "br";
    } else {
      body = await readFile(file);
    }
  } catch {
    response.writeHead(404).end();
    return;
  }
  headers["content-length"] = body.length;
  response.writeHead(200, headers).end(body);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`peers are serving on http://127.0.0.1:${server.address().port}`);
});
