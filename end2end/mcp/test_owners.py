"""Each agent its own, over MCP: on a desk with people, two agents and two
relaying agents, each with its token, against every tool and request that
names an ask (await_answer, cancel_ask, tasks/get|update|cancel, a
2026-07-28 round's requestState, the MCP App's tools) on both eras of the
protocol. Another agent's ask is no ask at all, and stays as it was."""

import subprocess
import tempfile
import uuid

import anyio
import httpx2
import pytest

from conftest import BINARY, SITE, wait_for_url
from test_ask_user import connect
from test_elicitation import ask
from test_relay import add
import test_tasks as tasks

pytestmark = pytest.mark.anyio

UI = "io.modelcontextprotocol/ui"
SHOWS_APPS = {"extensions": {UI: {"mimeTypes": ["text/html;profile=mcp-app"]}}}
ANSWERS = [{"id": "q1", "selected": ["Auth"], "custom": "SSO"}, {"id": "q2", "selected": ["SQLite"]}]


@pytest.fixture(scope="module")
def desk():
    with tempfile.TemporaryDirectory() as tmp:
        database = f"{tmp}/owners.db"
        tokens = {
            "bot": add(database, "bot", "--role", "agent"),
            "bot2": add(database, "bot2", "--role", "agent"),
            "relay": add(database, "relay", "--role", "agent", "--relays-answers"),
            "relay2": add(database, "relay2", "--role", "agent", "--relays-answers"),
            "alice": add(database, "alice"),
        }
        process = subprocess.Popen(
            [str(BINARY), "--addr", "127.0.0.1:0", "--database", database, "--site-root", SITE, "--elicit"],
            stdout=subprocess.PIPE, stderr=open(f"{tmp}/server.log", "w"), text=True,
        )
        try:
            yield wait_for_url(process), tokens
        finally:
            process.terminate()
            process.wait(timeout=10)


async def status(url: str, token: str, ask_id: str) -> str:
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.get(f"{url}/api/v1/asks/{ask_id}", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()["status"]


async def pending(url: str, token: str, capabilities: dict | None = None) -> str:
    """An ask `token`'s agent makes with ask_user on 2026-07-28, left
    pending: its id."""
    arguments = {**ask(f"owned {uuid.uuid4()}", None), "waitSeconds": 1}
    with anyio.fail_after(20):
        reply = await tasks.rpc(url, "tools/call", {"name": "ask_user", "arguments": arguments},
                                capabilities or {}, token=token)
    ask_id = reply["result"]["structuredContent"]["askId"]
    assert await status(url, token, ask_id) == "pending"
    return ask_id


async def test_another_agents_ask_is_no_ask_to_await_or_cancel_on_either_era(desk):
    url, tokens = desk
    bots = await pending(url, tokens["bot"])
    for name in ["await_answer", "cancel_ask"]:
        arguments = {"askId": bots, "waitSeconds": 1} if name == "await_answer" else {"askId": bots}
        reply = await tasks.rpc(url, "tools/call", {"name": name, "arguments": arguments}, {},
                                token=tokens["bot2"])
        assert reply["result"]["isError"] is True, (name, reply)
    async with connect("http", url, token=tokens["bot2"]) as session:
        with anyio.fail_after(20):
            awaited = await session.call_tool("await_answer", {"askId": bots, "waitSeconds": 1})
            cancelled = await session.call_tool("cancel_ask", {"askId": bots})
    assert awaited.is_error and cancelled.is_error
    assert "no ask" in awaited.content[0].text.lower() or "not" in awaited.content[0].text.lower()
    assert await status(url, tokens["bot"], bots) == "pending"
    # Its own agent waits on it and withdraws it.
    async with connect("http", url, token=tokens["bot"]) as session:
        with anyio.fail_after(20):
            cancelled = await session.call_tool("cancel_ask", {"askId": bots})
    assert not cancelled.is_error, cancelled
    assert await status(url, tokens["bot"], bots) == "cancelled"


async def test_another_agents_task_is_unknown_to_get_update_and_cancel(desk):
    url, tokens = desk
    caps = tasks.extend(tasks.FORM)
    arguments = ask(f"task {uuid.uuid4()}")
    created = (await tasks.rpc(url, "tools/call", {"name": "ask_user", "arguments": arguments}, caps,
                               token=tokens["relay"]))["result"]
    assert created["resultType"] == "task", created
    task_id = created["taskId"]
    for token in [tokens["bot2"], tokens["relay2"]]:
        for method, params in [
            ("tasks/get", {"taskId": task_id}),
            ("tasks/update", {"taskId": task_id, "inputResponses": {"answer": {"action": "decline"}}}),
            ("tasks/cancel", {"taskId": task_id}),
        ]:
            reply = await tasks.rpc(url, method, params, caps, token=token)
            assert reply.get("error", {}).get("code") == -32602, (method, reply)
    own = (await tasks.rpc(url, "tasks/get", {"taskId": task_id}, caps, token=tokens["relay"]))["result"]
    assert own["status"] == "input_required" or own["status"] == "working", own
    # A task whose form is in the client names its ask with a suffix.
    assert await status(url, tokens["relay"], task_id[:32]) == "pending"


async def test_a_rounds_request_state_is_its_own_agents(desk):
    url, tokens = desk
    arguments = ask(f"round {uuid.uuid4()}")
    first = (await tasks.rpc(url, "tools/call", {"name": "ask_user", "arguments": arguments}, tasks.FORM,
                             token=tokens["relay"]))["result"]
    state = first["requestState"]
    retry = {"name": "ask_user", "arguments": arguments, "requestState": state,
             "inputResponses": {"answer": {"action": "decline"}}}
    for token in [tokens["bot2"], tokens["relay2"]]:
        reply = await tasks.rpc(url, "tools/call", retry, tasks.FORM, token=token)
        assert reply.get("error", {}).get("code") == -32602, reply
    ask_id = state.split(".")[2]
    assert await status(url, tokens["relay"], ask_id) == "pending"


async def test_a_relaying_agents_app_answers_only_its_own_asks(desk):
    url, tokens = desk
    bots = await pending(url, tokens["bot"])
    relay2s = await pending(url, tokens["relay2"], SHOWS_APPS)
    for ask_id in [bots, relay2s]:
        for name, arguments in [
            ("answer_in_app", {"askId": ask_id, "answers": ANSWERS}),
            ("answer_in_app", {"askId": ask_id, "decline": {"reason": "not yours"}}),
            ("read_ask", {"askId": ask_id}),
            ("keep_draft", {"askId": ask_id}),
        ]:
            reply = await tasks.rpc(url, "tools/call", {"name": name, "arguments": arguments}, SHOWS_APPS,
                                    token=tokens["relay"])
            assert reply["result"]["isError"] is True, (name, reply)
            # Not found, as an id that is no ask's: never "forbidden".
            found = reply["result"].get("structuredContent", {}).get("Err")
            assert found in (None, "NotFound"), (name, reply)
            assert "Forbidden" not in str(reply), (name, reply)
    assert await status(url, tokens["bot"], bots) == "pending"
    assert await status(url, tokens["relay2"], relay2s) == "pending"
    # Its own ask, its client relays.
    own = await pending(url, tokens["relay"], SHOWS_APPS)
    answered = (await tasks.rpc(url, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": own, "answers": ANSWERS}}, SHOWS_APPS, token=tokens["relay"]))["result"]
    assert answered["structuredContent"]["Ok"]["status"] == "answered", answered


async def test_an_mcp_session_is_its_opening_credentials(desk):
    url, tokens = desk
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bot", "version": "1"}}}
    async with httpx2.AsyncClient(timeout=30) as http:
        opened = await http.post(f"{url}/mcp", json=initialize,
                                 headers={**headers, "Authorization": f"Bearer {tokens['bot']}"})
        session = opened.headers["mcp-session-id"]
        named = {**headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"}
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        for token in [tokens["bot2"], tokens["relay"]]:
            as_other = {**named, "Authorization": f"Bearer {token}"}
            assert (await http.post(f"{url}/mcp", json=listing, headers=as_other)).status_code == 404
            assert (await http.delete(f"{url}/mcp", headers=as_other)).status_code == 404
        as_bot = {**named, "Authorization": f"Bearer {tokens['bot']}"}
        await http.post(f"{url}/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                        headers=as_bot)
        listed = await http.post(f"{url}/mcp", json=listing, headers=as_bot)
        assert listed.status_code == 200 and "ask_user" in listed.text
