// An ACP agent written with the official SDK (@agentclientprotocol/sdk),
// for end2end/mcp/test_acp.py: on each prompt it asks its editor what the
// prompt's text names — "permission" (request_permission with the two
// options an agent offers for a shell command) or "form" (elicitation in
// form mode: a multi-select and a text field) — and prints the outcome it
// got on stderr as `OUTCOME <json>`, then ends the turn. stdout is the
// protocol's.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const { methods } = acp;
let sessions = 0;

const agent = acp
  .agent({ name: "askdesk-test-agent" })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    authMethods: [],
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `sess_${++sessions}` }))
  .onNotification(methods.agent.session.cancel, () => {})
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((part) => part.text ?? "").join(" ");
    let outcome;
    if (text.includes("form")) {
      outcome = await client.request(methods.client.elicitation.create, {
        sessionId: params.sessionId,
        mode: "form",
        message: "Release settings",
        requestedSchema: {
          type: "object",
          properties: {
            envs: { type: "array", title: "Where to?", items: { type: "string", enum: ["staging", "prod"] } },
            note: { type: "string", title: "Anything else?" },
          },
        },
      });
    } else {
      outcome = await client.request(methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall: { toolCallId: "call_1", title: "Run rm -rf build/", kind: "execute", status: "pending" },
        options: [
          { optionId: "allow", name: "Allow once", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
    }
    console.error(`OUTCOME ${JSON.stringify(outcome)}`);
    return { stopReason: "end_turn" };
  });

await agent.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin))).closed;
