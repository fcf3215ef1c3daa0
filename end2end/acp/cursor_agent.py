"""An agent that asks as Cursor's CLI does: `cursor/ask_question`, an
extension of ACP the official SDK does not know, spoken here as raw JSON
lines (its shape as the clients that answer it read it). It answers
initialize and session/new, asks on each prompt, prints the outcome on
stderr as `OUTCOME <json>` and ends the turn."""

import json
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def main() -> None:
    asked: dict[int, int] = {}  # our request's id → the prompt it serves
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        if method == "initialize":
            send({"id": message["id"], "result": {"protocolVersion": 1, "agentCapabilities": {}, "authMethods": []}})
        elif method == "session/new":
            send({"id": message["id"], "result": {"sessionId": "sess_cursor"}})
        elif method == "session/prompt":
            ours = 1000 + message["id"]
            asked[ours] = message["id"]
            send({"id": ours, "method": "cursor/ask_question", "params": {
                "toolCallId": "tool_1", "title": "Cursor set-up",
                "questions": [
                    {"id": "q-db", "prompt": "Which database?", "allowMultiple": False,
                     "options": [{"id": "o1", "label": "SQLite"}, {"id": "o2", "label": "PostgreSQL"}]},
                    {"id": "q-envs", "prompt": "Where to?", "allowMultiple": True,
                     "options": [{"id": "e1", "label": "staging"}, {"id": "e2", "label": "prod"}]}]}})
        elif method is None and message.get("id") in asked:
            print("OUTCOME " + json.dumps(message.get("result", message.get("error"))), file=sys.stderr, flush=True)
            send({"id": asked.pop(message["id"]), "result": {"stopReason": "end_turn"}})


main()
