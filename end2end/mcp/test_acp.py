"""`askdesk acp`: the proxy an editor runs in an ACP agent's place. The
test is the editor, speaking ACP's JSON lines on the proxy's stdin and
stdout; the agent is end2end/acp/agent.mjs, written with the official ACP
SDK. A permission prompt or a form the agent asks reaches the editor
unchanged and the desk too: whichever answers first is the agent's one
reply, and the other side is told it is over. Without a desk the editor
asks as usual."""

import json
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2

from conftest import BINARY

AGENT = Path(__file__).resolve().parents[1] / "acp" / "agent.mjs"


class Editor:
    """The editor's side: the proxy's stdin and stdout, and what the
    agent printed on stderr."""

    def __init__(self, url: str, agent: list[str] | None = None):
        self.process = subprocess.Popen(
            [str(BINARY), "acp", "--url", url, "--", *(agent or ["node", str(AGENT)])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.inbox: queue.Queue = queue.Queue()
        self.stderr: list[str] = []
        self.ids = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.inbox.put(json.loads(line))

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line)

    def send(self, message: dict):
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> int:
        self.ids += 1
        self.send({"id": self.ids, "method": method, "params": params})
        return self.ids

    def expect(self, wanted, seconds: float = 20) -> dict:
        """The next message `wanted` accepts; the ones before it must be
        none the test cares about (session updates)."""
        end = time.monotonic() + seconds
        while True:
            message = self.inbox.get(timeout=max(0.1, end - time.monotonic()))
            if wanted(message):
                return message

    def reply_to(self, request_id: int) -> dict:
        return self.expect(lambda m: m.get("id") == request_id and "method" not in m)

    def outcome(self, seconds: float = 20) -> dict:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for line in self.stderr:
                if line.startswith("OUTCOME "):
                    self.stderr.remove(line)
                    return json.loads(line[len("OUTCOME "):])
            time.sleep(0.05)
        raise AssertionError(f"the agent heard nothing: {self.stderr}")

    def open_session(self) -> str:
        self.reply_to(self.request("initialize", {
            "protocolVersion": 1,
            "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False,
                                   "elicitation": {"form": {}}},
            "clientInfo": {"name": "test-editor", "version": "1"},
        }))
        opened = self.reply_to(self.request("session/new", {"cwd": "/home/ann/shop", "mcpServers": []}))
        return opened["result"]["sessionId"]

    def prompt(self, session: str, text: str) -> tuple[int, dict]:
        """Sends a prompt: its id, and the agent's request to the editor."""
        sent = self.request("session/prompt", {"sessionId": session, "prompt": [{"type": "text", "text": text}]})
        asked = self.expect(lambda m: m.get("method") in (
            "session/request_permission", "elicitation/create", "cursor/ask_question"))
        return sent, asked

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def pending_ask(url: str, title: str) -> dict:
    """The desk's pending ask titled `title`, once it is there."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        asks = httpx2.get(f"{url}/api/v1/asks", params={"status": "pending"}).json()["asks"]
        found = [a for a in asks if a["title"] == title and a["status"] == "pending"]
        if found:
            return httpx2.get(f"{url}/api/v1/asks/{found[0]['id']}").json()
        time.sleep(0.1)
    raise AssertionError(f"no pending ask {title!r} at the desk")


def answer(url: str, ask_id: str, answers: list) -> None:
    done = httpx2.post(f"{url}/api/v1/asks/{ask_id}/answers", json={"answers": answers})
    assert done.status_code == 200, done.text


def test_the_desks_answer_reaches_the_agent_and_the_editor_is_told_it_is_over(server_url):
    editor = Editor(server_url)
    session = editor.open_session()
    prompt, asked = editor.prompt(session, "permission")
    assert asked["params"]["options"][0]["optionId"] == "allow"
    ask = pending_ask(server_url, "Permission: Run rm -rf build/")
    assert ask["agent"] == "node · shop", ask
    answer(server_url, ask["id"], [{"id": "permission", "selected": ["Allow once"]}])
    over = editor.expect(lambda m: m.get("method") == "$/cancel_request")
    assert over["params"]["requestId"] == asked["id"]
    assert editor.outcome() == {"outcome": {"outcome": "selected", "optionId": "allow"}}
    assert editor.reply_to(prompt)["result"]["stopReason"] == "end_turn"
    # The editor's late reply is dropped: the agent heard one answer.
    editor.send({"id": asked["id"], "error": {"code": -32800, "message": "Request cancelled"}})
    second, asked_again = editor.prompt(session, "permission")
    editor.send({"id": asked_again["id"], "result": {"outcome": {"outcome": "selected", "optionId": "reject"}}})
    assert editor.outcome() == {"outcome": {"outcome": "selected", "optionId": "reject"}}
    editor.reply_to(second)
    editor.close()


def test_the_editors_answer_reaches_the_agent_and_the_desks_ask_is_withdrawn(server_url):
    editor = Editor(server_url)
    session = editor.open_session()
    prompt, asked = editor.prompt(session, "permission")
    ask = pending_ask(server_url, "Permission: Run rm -rf build/")
    editor.send({"id": asked["id"], "result": {"outcome": {"outcome": "selected", "optionId": "reject"}}})
    assert editor.outcome() == {"outcome": {"outcome": "selected", "optionId": "reject"}}
    editor.reply_to(prompt)
    end = time.monotonic() + 20
    while httpx2.get(f"{server_url}/api/v1/asks/{ask['id']}").json()["status"] != "cancelled":
        assert time.monotonic() < end, "the desk's ask was not withdrawn"
        time.sleep(0.1)
    editor.close()


def test_a_form_answered_at_the_desk_keeps_labels_and_typed_text_together(server_url):
    editor = Editor(server_url)
    session = editor.open_session()
    prompt, asked = editor.prompt(session, "form")
    assert asked["method"] == "elicitation/create"
    ask = pending_ask(server_url, "Release settings")
    ids = [q["id"] for q in ask["request"]["questions"]]
    answer(server_url, ask["id"], [{"id": ids[0], "selected": ["staging"]},
                                   {"id": ids[1], "selected": [], "custom": "after lunch"}])
    assert editor.outcome() == {"action": "accept", "content": {"envs": ["staging"], "note": "after lunch"}}
    editor.reply_to(prompt)
    editor.close()


def test_without_a_desk_the_editor_asks_as_usual():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    # https where nothing listens: no desk answers, and none can be started.
    editor = Editor(f"https://127.0.0.1:{closed}")
    session = editor.open_session()
    prompt, asked = editor.prompt(session, "permission")
    editor.send({"id": asked["id"], "result": {"outcome": {"outcome": "selected", "optionId": "allow"}}})
    assert editor.outcome() == {"outcome": {"outcome": "selected", "optionId": "allow"}}
    assert editor.reply_to(prompt)["result"]["stopReason"] == "end_turn"
    editor.close()
    assert any("the editor asks as usual" in line for line in editor.stderr), editor.stderr


def test_the_proxy_ends_with_its_agent_and_says_why_one_cannot_start():
    for agent, code in [("true", 0), ("false", 1)]:
        # The editor's stdin stays open: the agent's end is the proxy's.
        process = subprocess.Popen([str(BINARY), "acp", "--", agent], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.wait(timeout=20) == code, agent
        process.stdin.close()
    missing = subprocess.run([str(BINARY), "acp", "--", "/nonexistent/agent"], capture_output=True, text=True,
                             timeout=20)
    assert missing.returncode == 1 and "cannot start /nonexistent/agent" in missing.stderr, missing.stderr


def test_cursors_own_questions_are_answered_at_the_desk_by_their_options(server_url):
    cursor_agent = [sys.executable, str(AGENT.parent / "cursor_agent.py")]
    editor = Editor(server_url, cursor_agent)
    session = editor.open_session()
    prompt, asked = editor.prompt(session, "set up")
    assert asked["method"] == "cursor/ask_question"
    ask = pending_ask(server_url, "Cursor set-up")
    answer(server_url, ask["id"], [{"id": "q-db", "selected": ["PostgreSQL"]},
                                   {"id": "q-envs", "selected": ["staging", "prod"]}])
    assert editor.outcome() == {"outcome": {"outcome": "answered", "answers": [
        {"questionId": "q-db", "selectedOptionIds": ["o2"]},
        {"questionId": "q-envs", "selectedOptionIds": ["e1", "e2"]}]}}
    editor.expect(lambda m: m.get("method") == "$/cancel_request")
    editor.reply_to(prompt)
    editor.close()
