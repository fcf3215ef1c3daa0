// askdesk's OpenCode plugin, written by `askdesk setup opencode` (`--remove` takes it out).
//
// It starts `askdesk opencode` beside this OpenCode's server, so that the
// questions and permission requests OpenCode asks in its window are asked
// at the desk too; the first answer wins. The bridge ends with OpenCode.
// Its server must listen on a port (`opencode serve`, or `opencode --port 0`):
// the bridge follows it over HTTP, with OPENCODE_SERVER_PASSWORD if it is set.

import { spawn } from "node:child_process";

const ASKDESK = "{program}";

export const Askdesk = async ({ client, serverUrl }) => {
  if (!serverUrl) return {};
  const log = (level, message) =>
    client?.app?.log?.({ body: { service: "askdesk", level, message } })?.catch?.(() => {});
  const bridge = spawn(
    ASKDESK,
    ["opencode", "--server", String(serverUrl), "--until-stdin-closes"],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  bridge.on("error", (error) => log("error", `cannot start ${ASKDESK}: ${error.message}`));
  bridge.stderr.setEncoding("utf8");
  bridge.stderr.on("data", (text) => {
    for (const line of text.split("\n")) if (line.trim()) log("info", line);
  });
  return {};
};
