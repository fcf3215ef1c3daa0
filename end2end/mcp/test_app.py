"""askdesk's form as an MCP App (io.modelcontextprotocol/ui), as the
server speaks it to a host: over streamable HTTP and over stdio
(`askdesk mcp`, whose answers reach the server through its API), spoken
as raw JSON-RPC on 2026-07-28 (the Python SDK has no host side). The
form itself, in a browser under the official AppBridge, is
end2end/tests/app.spec.ts."""

import itertools
import json
import os
import subprocess
import uuid

import anyio
import pytest

from test_elicitation import ask, ask_titled
from test_tasks import rpc

pytestmark = pytest.mark.anyio

UI = "io.modelcontextprotocol/ui"
MIME = "text/html;profile=mcp-app"
SHOWS_APPS = {"extensions": {UI: {"mimeTypes": [MIME]}}}
ids = itertools.count(1)


async def http_caller(url: str):
    async def call(method: str, params: dict) -> dict:
        return await rpc(url, method, params, SHOWS_APPS)

    return call


class Stdio:
    """`askdesk mcp` for the server at `url`, one JSON line per message."""

    def __init__(self, url: str):
        self.url = url
        self.buffered = b""

    async def __aenter__(self):
        from conftest import BINARY, SITE

        self.process = await anyio.open_process(
            [str(BINARY), "mcp"],
            env={**os.environ, "ASKDESK_URL": self.url, "ASKDESK_SITE_ROOT": SITE, "RUST_LOG": "warn"},
            stderr=subprocess.DEVNULL,
        )
        return self.call

    async def __aexit__(self, *_):
        self.process.terminate()
        await self.process.wait()

    async def call(self, method: str, params: dict) -> dict:
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw-host", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": SHOWS_APPS,
        }
        request_id = next(ids)
        line = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta}}
        await self.process.stdin.send((json.dumps(line) + "\n").encode())
        with anyio.fail_after(20):
            while True:
                while b"\n" not in self.buffered:
                    self.buffered += await self.process.stdout.receive()
                message, self.buffered = self.buffered.split(b"\n", 1)
                reply = json.loads(message)
                if reply.get("id") == request_id:
                    return reply


async def result(call, method: str, params: dict) -> dict:
    reply = await call(method, params)
    assert "result" in reply, reply
    return reply["result"]


async def the_form_in_a_host(call, server_url: str):
    discovered = await result(call, "server/discover", {})
    assert UI in discovered["capabilities"]["extensions"]
    tools = {t["name"]: t for t in (await result(call, "tools/list", {}))["tools"]}
    assert tools["ask_user"]["_meta"]["ui"] == {"resourceUri": "ui://askdesk/ask", "visibility": ["model", "app"]}
    assert tools["answer_in_app"]["_meta"]["ui"]["visibility"] == ["app"]
    document = (await result(call, "resources/read", {"uri": "ui://askdesk/ask"}))["contents"][0]
    assert document["mimeType"] == MIME
    assert document["text"].startswith("<!DOCTYPE html>") and 'id="askdesk-app"' in document["text"]

    title = f"app {uuid.uuid4()}"
    # Returns at once, naming the ask for the view.
    with anyio.fail_after(10):
        opened = await result(call, "tools/call", {"name": "ask_user", "arguments": ask(title, None)})
    ask_id = opened["structuredContent"]["askId"]
    assert opened["structuredContent"]["status"] == "pending"
    read = await result(call, "tools/call", {"name": "read_ask", "arguments": {"askId": ask_id}})
    assert read["structuredContent"]["Ok"]["request"]["questions"][0]["multiSelect"] is True

    # The one validator refuses what the page's form would be refused.
    wrong = await result(call, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "answers": [{"id": "q1", "selected": ["Nope"]}, {"id": "q2", "selected": ["SQLite"]}]}})
    assert wrong["isError"] is True
    problems = wrong["structuredContent"]["Err"]["Invalid"]
    assert any(p["path"].startswith("answers[0]") for p in problems), problems
    both = await result(call, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "answers": [], "decline": {}}})
    assert both["isError"] is True

    answered = await result(call, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id,
        "answers": [{"id": "q1", "selected": ["Auth"], "custom": "SSO"}, {"id": "q2", "selected": ["SQLite"]}]}})
    assert answered["structuredContent"]["Ok"]["status"] == "answered", answered
    awaited = await result(call, "tools/call", {"name": "await_answer", "arguments": {"askId": ask_id}})
    assert awaited["structuredContent"]["answers"][0] == {"id": "q1", "selected": ["Auth"], "custom": "SSO"}
    stored = await ask_titled(server_url, title)
    assert (stored["via"], stored["answeredBy"]) == ("mcp-app", None)

    # Too late: the ask has ended, and the view hears how.
    late = await result(call, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "decline": {"reason": "changed my mind"}}})
    assert late["structuredContent"]["Err"]["Finished"]["status"] == "answered"


async def the_form_without_webassembly(call, server_url: str):
    """show_ask: the server-rendered form of a view whose host runs no
    WebAssembly, posted back field by field as a browser would."""
    title = f"app script {uuid.uuid4()}"
    with anyio.fail_after(10):
        opened = await result(call, "tools/call", {"name": "ask_user", "arguments": ask(title, None)})
    ask_id = opened["structuredContent"]["askId"]
    shown = (await result(call, "tools/call", {"name": "show_ask", "arguments": {"askId": ask_id}}))["structuredContent"]
    assert shown["status"] == "pending" and shown["html"].startswith("<form "), shown
    assert 'name="answer.q1"' in shown["html"] and 'name="other.q1"' in shown["html"]
    # Text typed for a question with nothing else, sent without the second
    # question's answer: refused, the form back with what was typed and the
    # problem beside the question it is about.
    typed = [["other.q1", "SSO <b>only</b>"], ["intent", "answer"]]
    refused = (await result(call, "tools/call", {"name": "show_ask", "arguments": {
        "askId": ask_id, "fields": typed, "send": True}}))["structuredContent"]
    assert refused["status"] == "pending", refused
    assert 'value="SSO &lt;b&gt;only&lt;/b&gt;"' in refused["html"], refused
    assert 'class="problems"' in refused["html"], refused
    assert (await ask_titled(server_url, title))["status"] == "pending"
    # Labels and text together; the answer the agent gets holds both.
    fields = [["answer.q1", "Auth"], ["other.q1", "SSO"], ["answer.q2", "SQLite"], ["intent", "answer"]]
    answered = (await result(call, "tools/call", {"name": "show_ask", "arguments": {
        "askId": ask_id, "fields": fields, "send": True, "locale": "en-US"}}))["structuredContent"]
    assert answered["status"] == "answered" and "<form" not in answered["html"], answered
    awaited = await result(call, "tools/call", {"name": "await_answer", "arguments": {"askId": ask_id}})
    assert awaited["structuredContent"]["answers"][0] == {"id": "q1", "selected": ["Auth"], "custom": "SSO"}
    assert (await ask_titled(server_url, title))["via"] == "mcp-app"
    # An unknown ask is said in words, and a wrong argument is refused.
    missing = (await result(call, "tools/call", {"name": "show_ask", "arguments": {
        "askId": "0" * 32}}))["structuredContent"]
    assert "status" not in missing and 'role="alert"' in missing["html"], missing
    wrong = await result(call, "tools/call", {"name": "show_ask", "arguments": {"askId": ask_id, "field": []}})
    assert wrong["isError"] is True


async def test_the_form_without_webassembly_over_http(server_url):
    await the_form_without_webassembly(await http_caller(server_url), server_url)


async def test_the_form_without_webassembly_over_stdio(server_url):
    async with Stdio(server_url) as call:
        await the_form_without_webassembly(call, server_url)


async def test_the_form_in_a_host_over_http(server_url):
    await the_form_in_a_host(await http_caller(server_url), server_url)


async def test_the_form_in_a_host_over_stdio(server_url):
    async with Stdio(server_url) as call:
        await the_form_in_a_host(call, server_url)


async def test_a_client_that_shows_no_apps_keeps_ask_user_waiting_and_has_no_app_tools(server_url):
    async def call(method, params):
        return await rpc(server_url, method, params, {})

    tools = [t["name"] for t in (await result(call, "tools/list", {}))["tools"]]
    assert tools == ["ask_user", "await_answer", "cancel_ask"]
    refused = await call("tools/call", {"name": "read_ask", "arguments": {"askId": "x"}})
    assert "error" in refused, refused
    title = f"no app {uuid.uuid4()}"
    waited = await result(call, "tools/call", {"name": "ask_user", "arguments": {**ask(title, None), "waitSeconds": 1}})
    assert waited["structuredContent"]["status"] == "pending"
    assert "await_answer" in waited["content"][0]["text"]
