"""ask_user as a task (MCP 2026-07-28's io.modelcontextprotocol/tasks
extension), spoken as raw JSON-RPC over HTTP: the Python SDK has no
client for this revision of the extension. A task is its ask: it is
polled with tasks/get, answered with tasks/update, withdrawn with
tasks/cancel, and any instance answers for it."""

import itertools
import json
import re
import uuid

import anyio
import httpx2
import pytest

from test_ask_user import human, pending_ask
from test_elicitation import ask, ask_titled

pytestmark = pytest.mark.anyio

TASKS = "io.modelcontextprotocol/tasks"
FORM = {"elicitation": {"form": {}}}
ids = itertools.count(1)


async def rpc(url: str, method: str, params: dict, capabilities: dict | None = None,
              token: str | None = None) -> dict:
    """One JSON-RPC request on 2026-07-28, its metadata on the request and
    mirrored in the headers, with `token` as its bearer when given; the
    JSON-RPC response."""
    capabilities = {"extensions": {TASKS: {}}} if capabilities is None else capabilities
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw-tasks", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    if token:
        headers["Authorization"] = f"Bearer {token}"
    name = params.get("name") or params.get("taskId") or params.get("uri")
    if name:
        headers["Mcp-Name"] = name
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(f"{url}/mcp", json=body, headers=headers)
    assert response.status_code in (200, 400), response.text
    assert "mcp-session-id" not in response.headers
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        # SSE's own line ends only: str.splitlines would also split at
        # U+0085 and the like, which JSON strings may hold as they are.
        lines = re.split(r"\r\n|\r|\n", response.text)
        frames = [line[5:].strip() for line in lines if line.startswith("data:")]
        replies = [json.loads(f) for f in frames if f]
        return next(r for r in replies if "result" in r or "error" in r)
    return response.json()


async def result(url: str, method: str, params: dict, capabilities: dict | None = None) -> dict:
    reply = await rpc(url, method, params, capabilities)
    assert "result" in reply, reply
    return reply["result"]


def extend(capabilities: dict) -> dict:
    return {**capabilities, "extensions": {TASKS: {}}}


async def start(url: str, title: str, capabilities: dict | None = None) -> dict:
    created = await result(url, "tools/call", {"name": "ask_user", "arguments": ask(title, None)}, capabilities)
    assert created["resultType"] == "task", created
    return created


async def poll(url: str, task_id: str, until, capabilities: dict | None = None) -> dict:
    with anyio.fail_after(20):
        while True:
            got = await result(url, "tasks/get", {"taskId": task_id}, capabilities)
            if until(got):
                return got
            await anyio.sleep(0.1)


async def test_discover_advertises_tasks(server_url):
    discovered = await result(server_url, "server/discover", {})
    assert TASKS in discovered["capabilities"]["extensions"]
    assert "2026-07-28" in discovered["supportedVersions"]


async def test_a_task_works_until_the_page_answers_then_completes_with_ask_user_s_result(server_url):
    title = f"task page {uuid.uuid4()}"
    created = await start(server_url, title)
    assert created["status"] == "working"
    assert created["pollIntervalMs"] > 0
    # The ask was stored before the reply.
    ask_row = await pending_ask(server_url, title)
    assert created["taskId"] == ask_row["id"]
    working = await result(server_url, "tasks/get", {"taskId": created["taskId"]})
    assert (working["resultType"], working["status"]) == ("complete", "working")
    assert ask_row["url"] in working["statusMessage"]
    await human(server_url, title, "answers", {"answers": [
        {"id": "q1", "selected": ["Auth"], "custom": "Audit log"}, {"id": "q2", "selected": ["SQLite"]},
    ]})
    done = await poll(server_url, created["taskId"], lambda t: t["status"] != "working")
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"] == {"status": "answered", "answers": [
        {"id": "q1", "selected": ["Auth"], "custom": "Audit log"}, {"id": "q2", "selected": ["SQLite"]},
    ]}
    assert "Audit log" in done["result"]["content"][0]["text"]


async def test_answered_in_the_client_through_tasks_update(server_url):
    title = f"task form {uuid.uuid4()}"
    caps = extend(FORM)
    body = {"name": "ask_user", "arguments": ask(title)}
    created = await result(server_url, "tools/call", body, caps)
    assert created["resultType"] == "task"
    task_id = created["taskId"]
    asked = await result(server_url, "tasks/get", {"taskId": task_id}, caps)
    assert asked["status"] == "input_required"
    assert list(asked["inputRequests"]) == ["answer"]
    assert asked["inputRequests"]["answer"]["method"] == "elicitation/create"
    # A refused reply: nothing stored, the form again under a new key, saying why.
    ack = await result(server_url, "tasks/update", {"taskId": task_id, "inputResponses": {
        "answer": {"action": "accept", "content": {"q1": ["Telemetry"], "q2": "SQLite"}}}}, caps)
    assert ack == {"resultType": "complete"} or ack.get("resultType") == "complete", ack
    again = await result(server_url, "tasks/get", {"taskId": task_id}, caps)
    assert list(again["inputRequests"]) == ["answer-2"]
    assert "Telemetry" in again["inputRequests"]["answer-2"]["params"]["message"]
    assert (await ask_titled(server_url, title))["status"] == "pending"
    # A reply to a key no longer asked under is ignored.
    await result(server_url, "tasks/update", {"taskId": task_id, "inputResponses": {
        "answer": {"action": "decline"}}}, caps)
    assert (await ask_titled(server_url, title))["status"] == "pending"
    await result(server_url, "tasks/update", {"taskId": task_id, "inputResponses": {
        "answer-2": {"action": "accept", "content": {"q1": ["Metrics"], "q1_other": "Traces", "q2": "PostgreSQL"}}}}, caps)
    done = await result(server_url, "tasks/get", {"taskId": task_id}, caps)
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"]["answers"] == [
        {"id": "q1", "selected": ["Metrics"], "custom": "Traces"}, {"id": "q2", "selected": ["PostgreSQL"]},
    ]
    assert (await ask_titled(server_url, title))["via"] == "mcp-client"


async def test_declining_in_the_task_s_form_declines(server_url):
    caps = extend(FORM)
    title = f"task decline {uuid.uuid4()}"
    created = await result(server_url, "tools/call", {"name": "ask_user", "arguments": ask(title)}, caps)
    await result(server_url, "tasks/update", {"taskId": created["taskId"], "inputResponses": {
        "answer": {"action": "decline"}}}, caps)
    done = await result(server_url, "tasks/get", {"taskId": created["taskId"]}, caps)
    assert done["result"]["structuredContent"]["status"] == "declined"


async def test_tasks_cancel_withdraws_the_ask_and_a_faster_person_keeps_their_answer(server_url):
    title = f"task cancel {uuid.uuid4()}"
    created = await start(server_url, title)
    await result(server_url, "tasks/cancel", {"taskId": created["taskId"]})
    done = await result(server_url, "tasks/get", {"taskId": created["taskId"]})
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"]["status"] == "cancelled"
    assert (await ask_titled(server_url, title))["status"] == "cancelled"

    title = f"task cancel late {uuid.uuid4()}"
    created = await start(server_url, title)
    await human(server_url, title, "answers", {"answers": [
        {"id": "q1", "selected": ["Logging"]}, {"id": "q2", "selected": ["SQLite"]},
    ]})
    await result(server_url, "tasks/cancel", {"taskId": created["taskId"]})
    done = await result(server_url, "tasks/get", {"taskId": created["taskId"]})
    assert done["result"]["structuredContent"]["status"] == "answered"


async def test_unknown_tasks_and_clients_without_the_extension_are_refused(server_url):
    unknown = await rpc(server_url, "tasks/get", {"taskId": "0" * 32})
    assert unknown["error"]["code"] == -32602
    title = f"task undeclared {uuid.uuid4()}"
    created = await start(server_url, title)
    undeclared = await rpc(server_url, "tasks/get", {"taskId": created["taskId"]}, {})
    assert undeclared["error"]["code"] == -32021
    # Without the extension, ask_user is a call that waits, as always.
    async with anyio.create_task_group() as tg:
        other = f"no tasks {uuid.uuid4()}"
        tg.start_soon(human, server_url, other, "answers", {"answers": [
            {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]},
        ]})
        plain = await result(server_url, "tools/call", {"name": "ask_user", "arguments": ask(other, None)}, {})
    assert plain.get("resultType", "complete") == "complete"
    assert plain["structuredContent"]["status"] == "answered"


async def test_a_task_over_stdio(server_url):
    """`askdesk mcp` speaks the extension too, as JSON lines on stdio."""
    import os
    import subprocess

    from conftest import BINARY, SITE

    process = await anyio.open_process(
        [str(BINARY), "mcp"],
        env={**os.environ, "ASKDESK_URL": server_url, "ASKDESK_SITE_ROOT": SITE, "RUST_LOG": "warn"},
        stderr=subprocess.DEVNULL,
    )
    buffered = b""

    async def call(method: str, params: dict) -> dict:
        nonlocal buffered
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw-stdio", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": extend(FORM),
        }
        request_id = next(ids)
        line = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta}}
        await process.stdin.send((json.dumps(line) + "\n").encode())
        with anyio.fail_after(20):
            while True:
                while b"\n" not in buffered:
                    buffered += await process.stdout.receive()
                message, buffered = buffered.split(b"\n", 1)
                reply = json.loads(message)
                if reply.get("id") == request_id:
                    assert "result" in reply, reply
                    return reply["result"]

    try:
        title = f"task stdio {uuid.uuid4()}"
        discovered = await call("server/discover", {})
        assert TASKS in discovered["capabilities"]["extensions"]
        created = await call("tools/call", {"name": "ask_user", "arguments": ask(title)})
        assert created["resultType"] == "task"
        asked = await call("tasks/get", {"taskId": created["taskId"]})
        assert asked["status"] == "input_required"
        await call("tasks/update", {"taskId": created["taskId"], "inputResponses": {
            "answer": {"action": "accept", "content": {"q1": ["Auth", "Metrics"], "q1_other": "SSO", "q2": "SQLite"}}}})
        done = await call("tasks/get", {"taskId": created["taskId"]})
        assert done["result"]["structuredContent"]["answers"] == [
            {"id": "q1", "selected": ["Auth", "Metrics"], "custom": "SSO"}, {"id": "q2", "selected": ["SQLite"]},
        ]
    finally:
        process.terminate()
        await process.wait()
