"""`askdesk opencode`: OpenCode's questions and permission requests at the
desk. The OpenCode server here is a test server that speaks what
`opencode serve` 1.18 speaks (checked against the real binary): `GET
/global/event` as Server-Sent Events, each `data:` an envelope
`{directory, payload: {type, properties}}`, `server.connected` first;
`POST /question/{id}/reply` with `{"answers": [[…], …]}`, `POST
/question/{id}/reject`, `POST /permission/{id}/reply` with `{"reply",
"message"?}`, and `GET /question` / `GET /permission` listing a project's
open requests; with a password (`OPENCODE_SERVER_PASSWORD`), HTTP basic
authentication as user `opencode`. (The registry's `opencode serve`
starts without a model, but asks nothing without one.)"""

import base64
import http.server
import os
import json
import queue
import subprocess
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import httpx2
import pytest

from conftest import BINARY

SHOP = "/home/ann/shop"


class OpenCode(http.server.BaseHTTPRequestHandler):
    """One server's state, shared by its handlers (class attributes are
    reset per fixture)."""

    subscribers: "list[queue.Queue]"
    replies: "queue.Queue[tuple[str, str, dict | None]]"
    open_questions: list
    streams: int
    password: "str | None"

    def refused(self) -> bool:
        """Whether the request lacks the server's login (and was answered 401)."""
        if self.password is None:
            return False
        login = base64.b64encode(f"opencode:{self.password}".encode()).decode()
        if self.headers.get("Authorization") == f"Basic {login}":
            return False
        self.answer(401, {"name": "Unauthorized"})
        return True

    def do_GET(self):
        if self.refused():
            return
        path, _, query = self.path.partition("?")
        if path == "/global/event":
            events: queue.Queue = queue.Queue()
            self.subscribers.append(events)
            type(self).streams += 1
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                self.frame({"payload": {"type": "server.connected", "properties": {}}})
                while True:
                    try:
                        event = events.get(timeout=0.5)
                    except queue.Empty:
                        event = {"payload": {"type": "server.heartbeat", "properties": {}}}
                    if event is None:
                        return
                    self.frame(event)
            except OSError:
                return
            finally:
                self.subscribers.remove(events)
        elif path in ("/question", "/permission"):
            directory = urllib.parse.parse_qs(query).get("directory", [""])[0]
            listed = self.open_questions if path == "/question" and directory == SHOP else []
            self.answer(200, listed)
        else:
            self.answer(404, {"name": "NotFound"})

    def do_POST(self):
        if self.refused():
            return
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        directory = urllib.parse.parse_qs(query).get("directory", [""])[0]
        self.replies.put((path, directory, body))
        self.answer(200, True)

    def frame(self, event: dict):
        self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
        self.wfile.flush()

    def answer(self, status: int, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def publish(event: dict | None):
    """An event on every open stream, as OpenCode's bus sends it."""
    for events in list(OpenCode.subscribers):
        events.put(event)


@pytest.fixture
def opencode():
    OpenCode.subscribers = []
    OpenCode.replies = queue.Queue()
    OpenCode.open_questions = []
    OpenCode.streams = 0
    OpenCode.password = None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OpenCode)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    publish(None)
    server.shutdown()


def bridge(desk_url: str, opencode_url: str) -> subprocess.Popen:
    process = subprocess.Popen([str(BINARY), "opencode", "--url", desk_url, "--server", opencode_url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 20
    while OpenCode.streams == 0:
        assert time.monotonic() < end, "the bridge did not follow OpenCode's events"
        time.sleep(0.05)
    return process


def asked(request_id: str, questions: list) -> dict:
    return {"directory": SHOP, "payload": {"type": "question.asked", "properties": {
        "id": request_id, "sessionID": "ses_1", "questions": questions}}}


QUESTIONS = [
    {"question": "Which features?", "header": f"Features {uuid.uuid4().hex[:6]}", "multiple": True,
     "options": [{"label": "Auth", "description": "Sign-in"}, {"label": "Logging", "description": "Logs"}]},
    {"question": "Which database?", "header": "Database",
     "options": [{"label": "SQLite", "description": ""}, {"label": "PostgreSQL", "description": ""}]},
]


def pending_ask(url: str, title: str) -> dict:
    end = time.monotonic() + 20
    while time.monotonic() < end:
        asks = httpx2.get(f"{url}/api/v1/asks").json()["asks"]
        found = [a for a in asks if a["title"] == title and a["status"] == "pending"]
        if found:
            return httpx2.get(f"{url}/api/v1/asks/{found[0]['id']}").json()
        time.sleep(0.1)
    raise AssertionError(f"no pending ask {title!r}")


def status_of(url: str, ask_id: str) -> str:
    return httpx2.get(f"{url}/api/v1/asks/{ask_id}").json()["status"]


def test_a_question_answered_at_the_desk_reaches_opencode_with_labels_and_typed_text(server_url, opencode):
    process = bridge(server_url, opencode)
    try:
        publish(asked("que_1", QUESTIONS))
        ask = pending_ask(server_url, f"OpenCode: {QUESTIONS[0]['header']}")
        assert ask["agent"] == "OpenCode · shop"
        assert ask["request"]["questions"][0]["multiSelect"] is True
        answers = [{"id": "q1", "selected": ["Auth"], "custom": "SSO"}, {"id": "q2", "selected": ["SQLite"]}]
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/answers",
                           json={"answers": answers}).status_code == 200
        path, directory, body = OpenCode.replies.get(timeout=20)
        assert (path, directory) == ("/question/que_1/reply", SHOP)
        assert body == {"answers": [["Auth", "SSO"], ["SQLite"]]}
    finally:
        process.kill()


def test_declined_at_the_desk_rejects_and_answered_in_opencode_withdraws(server_url, opencode):
    process = bridge(server_url, opencode)
    try:
        declined = [dict(QUESTIONS[1], header=f"Decline {uuid.uuid4().hex[:6]}")]
        publish(asked("que_2", declined))
        ask = pending_ask(server_url, f"OpenCode: {declined[0]['header']}")
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/decline", json={}).status_code == 200
        assert OpenCode.replies.get(timeout=20)[:2] == ("/question/que_2/reject", SHOP)

        first = [dict(QUESTIONS[1], header=f"Terminal {uuid.uuid4().hex[:6]}")]
        publish(asked("que_3", first))
        ask = pending_ask(server_url, f"OpenCode: {first[0]['header']}")
        publish({"directory": SHOP, "payload": {"type": "question.replied", "properties": {
            "sessionID": "ses_1", "requestID": "que_3", "answers": [["SQLite"]]}}})
        end = time.monotonic() + 20
        while status_of(server_url, ask["id"]) != "cancelled":
            assert time.monotonic() < end, "the desk's ask was not withdrawn"
            time.sleep(0.1)
        assert OpenCode.replies.empty()
    finally:
        process.kill()


def test_a_permission_request_is_allowed_always_or_rejected_in_words(server_url, opencode):
    process = bridge(server_url, opencode)
    try:
        command = f"rm -rf build-{uuid.uuid4().hex[:6]}"
        publish({"directory": SHOP, "payload": {"type": "permission.asked", "properties": {
            "id": "per_1", "sessionID": "ses_1", "permission": "bash", "patterns": [command],
            "metadata": {"command": command}, "always": ["rm *"]}}})
        ask = pending_ask(server_url, f"Permission: bash {command}")
        answers = [{"id": "permission", "selected": [], "custom": "use make clean instead"}]
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/answers",
                           json={"answers": answers}).status_code == 200
        path, directory, body = OpenCode.replies.get(timeout=20)
        assert (path, directory) == ("/permission/per_1/reply", SHOP)
        assert body == {"reply": "reject", "message": "use make clean instead"}
    finally:
        process.kill()


def test_a_bridge_started_again_finds_its_ask_and_asks_nothing_twice(server_url, opencode):
    first = bridge(server_url, opencode)
    header = f"Again {uuid.uuid4().hex[:6]}"
    questions = [dict(QUESTIONS[1], header=header)]
    publish(asked("que_9", questions))
    ask = pending_ask(server_url, f"OpenCode: {header}")
    first.kill()
    first.wait()
    OpenCode.open_questions = [{"id": "que_9", "sessionID": "ses_1", "questions": questions}]
    OpenCode.streams = 0
    second = bridge(server_url, opencode)
    try:
        publish(asked("que_9", questions))
        time.sleep(1)
        asks = httpx2.get(f"{server_url}/api/v1/asks").json()["asks"]
        assert [a["id"] for a in asks if a["title"] == f"OpenCode: {header}"] == [ask["id"]]
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/answers",
                           json={"answers": [{"id": "q1", "selected": ["PostgreSQL"]}]}).status_code == 200
        path, _, body = OpenCode.replies.get(timeout=20)
        assert (path, body) == ("/question/que_9/reply", {"answers": [["PostgreSQL"]]})
    finally:
        second.kill()


def test_a_stream_that_drops_is_followed_again_and_what_was_asked_meanwhile_is_caught_up(server_url, opencode):
    process = bridge(server_url, opencode)
    try:
        seen = [dict(QUESTIONS[1], header=f"Seen {uuid.uuid4().hex[:6]}")]
        publish(asked("que_7", seen))
        pending_ask(server_url, f"OpenCode: {seen[0]['header']}")
        # The stream ends; meanwhile OpenCode asks in the same project.
        meanwhile = [dict(QUESTIONS[1], header=f"Meanwhile {uuid.uuid4().hex[:6]}")]
        OpenCode.open_questions = [{"id": "que_8", "sessionID": "ses_1", "questions": meanwhile}]
        OpenCode.streams = 0
        publish(None)
        ask = pending_ask(server_url, f"OpenCode: {meanwhile[0]['header']}")
        assert OpenCode.streams >= 1
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/answers",
                           json={"answers": [{"id": "q1", "selected": ["SQLite"]}]}).status_code == 200
        path, directory, body = OpenCode.replies.get(timeout=20)
        assert (path, directory, body) == ("/question/que_8/reply", SHOP, {"answers": [["SQLite"]]})
    finally:
        process.kill()


def test_without_a_desk_opencode_asks_as_usual_and_the_bridge_keeps_following(opencode):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    process = bridge(f"https://127.0.0.1:{closed}", opencode)
    try:
        publish(asked("que_5", QUESTIONS))
        time.sleep(1.5)
        assert process.poll() is None, "the bridge stopped"
        assert OpenCode.replies.empty()
    finally:
        process.kill()
        _, stderr = process.communicate(timeout=10)
    assert "OpenCode asks as usual" in stderr, stderr


PLUGIN_HOST = """
// What OpenCode does with a plugin file: imports it and calls each export
// with the plugin's input, then keeps running.
const plugin = await import(process.argv[2]);
await plugin.Askdesk({
  serverUrl: new URL(process.argv[3]),
  client: { app: { log: async ({ body }) => console.log(JSON.stringify(body)) } },
});
"""


def bridges_of(opencode_url: str) -> list[int]:
    """The pids of `askdesk opencode` processes following `opencode_url`."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        # The plugin hands over the URL as OpenCode's `URL` writes it.
        if b"opencode" in words and any(w.rstrip(b"/") == opencode_url.encode() for w in words):
            found.append(int(pid))
    return found


def test_setup_writes_a_plugin_that_starts_the_bridge_with_opencodes_password_and_ends_with_it(
        server_url, opencode, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "ASKDESK_URL", "ASKDESK_TOKEN")}
    env["HOME"] = str(home)
    said = subprocess.run([str(BINARY), "setup", "opencode"], env=env, capture_output=True, text=True, check=True).stdout
    plugin = home / ".config/opencode/plugins/askdesk.js"
    config = json.loads((home / ".config/opencode/opencode.json").read_text())
    assert config["mcp"]["askdesk"] == {"type": "local", "command": [str(BINARY.resolve()), "mcp"]}, config
    assert f"{plugin}: added askdesk's plugin" in said, said

    OpenCode.password = "s3cret pass"
    host = tmp_path / "host.mjs"
    host.write_text(PLUGIN_HOST)
    running = subprocess.Popen(["node", str(host), str(plugin), opencode],
                               env={**env, "ASKDESK_URL": server_url, "OPENCODE_SERVER_PASSWORD": "s3cret pass"},
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 20
        while OpenCode.streams == 0:
            assert running.poll() is None, "OpenCode's plugin host ended"
            assert time.monotonic() < end, "the plugin's bridge did not follow OpenCode's events"
            time.sleep(0.05)
        header = f"Plugin {uuid.uuid4().hex[:6]}"
        publish(asked("que_p", [dict(QUESTIONS[0], header=header)]))
        ask = pending_ask(server_url, f"OpenCode: {header}")
        answers = [{"id": "q1", "selected": ["Auth"], "custom": "and audit"}]
        assert httpx2.post(f"{server_url}/api/v1/asks/{ask['id']}/answers",
                           json={"answers": answers}).status_code == 200
        path, _, body = OpenCode.replies.get(timeout=20)
        assert (path, body) == ("/question/que_p/reply", {"answers": [["Auth", "and audit"]]})
        assert bridges_of(opencode), "no bridge found"
    finally:
        running.kill()
        running.wait()
    # OpenCode gone, its bridge goes too: its standard input closed.
    end = time.monotonic() + 10
    while bridges_of(opencode):
        assert time.monotonic() < end, "the bridge outlived OpenCode"
        time.sleep(0.1)
    # What the bridge said went to OpenCode's log, as the plugin's service.
    logged = [json.loads(line) for line in running.stdout.read().splitlines() if line.startswith("{")]
    assert any(entry["service"] == "askdesk" and "following" in entry["message"] for entry in logged), logged

    removed = subprocess.run([str(BINARY), "setup", "opencode", "--remove"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert not plugin.exists(), removed
    assert not (home / ".config/opencode/opencode.json").exists(), removed


def test_a_bridge_without_opencodes_password_is_refused_and_says_so(opencode):
    OpenCode.password = "s3cret"
    process = subprocess.Popen([str(BINARY), "opencode", "--url", "http://127.0.0.1:9", "--server", opencode],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={k: v for k, v in os.environ.items() if k != "OPENCODE_SERVER_PASSWORD"})
    # Its first attempt's line, read as it comes.
    said = queue.Queue()
    threading.Thread(target=lambda: [said.put(line) for line in process.stderr], daemon=True).start()
    lines = []
    try:
        while not any("401 Unauthorized" in line for line in lines):
            lines.append(said.get(timeout=20))
    finally:
        process.kill()
        process.wait()
    assert OpenCode.streams == 0, lines
