"""Who answers inside the agent's host, on a desk with people: the agent's
credentials decide, never the surface a call names. An agent that does
not relay answers gets no form in its client (no elicitation, no MCP App
tools) and its relayed answer is refused over HTTP and stdio alike; an
agent added with --relays-answers relays, and the ask names it as
`relayedBy` with no person as `answeredBy`."""

import re
import subprocess
import tempfile
import uuid

import anyio
import httpx2
import pytest

from conftest import BINARY, SITE, wait_for_url
from test_ask_user import call_while, connect
from test_elicitation import Form, accept, ask
import test_tasks as tasks

pytestmark = pytest.mark.anyio

UI = "io.modelcontextprotocol/ui"
SHOWS_APPS = {"extensions": {UI: {"mimeTypes": ["text/html;profile=mcp-app"]}}}


def add(database: str, *args: str) -> str:
    """`askdesk people add …` on the desk's file; the new token."""
    done = subprocess.run(
        [str(BINARY), "people", "add", *args, "--database", database],
        capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


@pytest.fixture(scope="module")
def team():
    """A desk with people (elicitation on): an agent, a relaying agent and
    a person, each with their token."""
    with tempfile.TemporaryDirectory() as tmp:
        database = f"{tmp}/team.db"
        tokens = {
            "bot": add(database, "bot", "--role", "agent"),
            "relay": add(database, "relay", "--role", "agent", "--relays-answers"),
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


async def rpc(url: str, token: str, method: str, params: dict) -> dict:
    """One JSON-RPC request on 2026-07-28 with `token`, from a host that
    shows apps."""
    return await tasks.rpc(url, method, params, SHOWS_APPS, token=token)


async def api(url: str, token: str, method: str, path: str, headers: dict | None = None,
              **kwargs) -> httpx2.Response:
    headers = {**(headers or {}), "Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(timeout=30) as http:
        return await http.request(method, f"{url}{path}", headers=headers, **kwargs)


async def stored(url: str, token: str, ask_id: str) -> dict:
    return (await api(url, token, "GET", f"/api/v1/asks/{ask_id}")).json()


ANSWERS = [{"id": "q1", "selected": ["Auth"], "custom": "SSO"}, {"id": "q2", "selected": ["SQLite"]}]


async def test_an_agent_that_does_not_relay_gets_no_app_and_its_app_answer_is_refused(team):
    url, tokens = team
    bot = tokens["bot"]
    me = (await api(url, bot, "GET", "/api/v1/me")).json()
    assert me == {"name": "bot", "role": "agent", "relaysAnswers": False}
    listed = (await rpc(url, bot, "tools/list", {}))["result"]["tools"]
    assert [t["name"] for t in listed] == ["ask_user", "await_answer", "cancel_ask"]
    arguments = {**ask(f"bot {uuid.uuid4()}", None), "waitSeconds": 1}
    with anyio.fail_after(15):
        waited = (await rpc(url, bot, "tools/call", {"name": "ask_user", "arguments": arguments}))["result"]
    assert "askdesk's form in this conversation" not in waited["content"][0]["text"], waited
    ask_id = waited["structuredContent"]["askId"]
    assert waited["structuredContent"]["status"] == "pending"
    # Called anyway, by a host that was never offered it: the desk refuses.
    refused = (await rpc(url, bot, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "answers": ANSWERS}}))["result"]
    assert refused["isError"] is True
    assert refused["structuredContent"]["Err"] == "Forbidden", refused
    # Nor through the form a host without WebAssembly shows: the form comes
    # back saying so, and nothing is stored.
    fields = [["answer.q1", "Auth"], ["other.q1", "SSO"], ["answer.q2", "SQLite"], ["intent", "answer"]]
    for send in [fields, [["intent", "decline"], ["reason", "no"]]]:
        shown = (await rpc(url, bot, "tools/call", {"name": "show_ask", "arguments": {
            "askId": ask_id, "fields": send, "send": True}}))["result"]
        assert shown["structuredContent"]["status"] == "pending", shown
        assert "You may not answer this ask" in shown["structuredContent"]["html"], shown
    # Nor does the header make the agent someone else, on any surface.
    for via in ["mcp-client", "mcp-app", "tui", "api", "web", "form", "slack", "ntfy", "push"]:
        for path, body in [("/answers", {"answers": ANSWERS}), ("/decline", {})]:
            response = await api(url, bot, "POST", f"/api/v1/asks/{ask_id}{path}", json=body,
                                 headers={"X-Askdesk-Via": via})
            assert response.status_code == 403, (via, path, response.text)
            assert "message" in response.json()
    assert (await stored(url, bot, ask_id))["status"] == "pending"


async def test_a_relaying_agent_relays_an_answer_given_in_its_app_and_is_named_for_it(team):
    url, tokens = team
    relay = tokens["relay"]
    assert (await api(url, relay, "GET", "/api/v1/me")).json()["relaysAnswers"] is True
    listed = (await rpc(url, relay, "tools/list", {}))["result"]["tools"]
    assert "answer_in_app" in [t["name"] for t in listed]
    with anyio.fail_after(15):
        opened = (await rpc(url, relay, "tools/call", {"name": "ask_user", "arguments": ask(f"relay {uuid.uuid4()}", None)}))["result"]
    assert "askdesk's form in this conversation" in opened["content"][0]["text"], opened
    ask_id = opened["structuredContent"]["askId"]
    answered = (await rpc(url, relay, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "answers": ANSWERS}}))["result"]
    assert answered["structuredContent"]["Ok"]["status"] == "answered", answered
    kept = await stored(url, relay, ask_id)
    assert (kept["via"], kept["answeredBy"], kept["relayedBy"]) == ("mcp-app", None, "relay")
    # Its own answer, through the API as itself, is still refused.
    another = (await rpc(url, relay, "tools/call", {"name": "ask_user", "arguments": {
        **ask(f"relay api {uuid.uuid4()}", None), "waitSeconds": 1}}))["result"]
    response = await api(url, relay, "POST", f"/api/v1/asks/{another['structuredContent']['askId']}/answers",
                         json={"answers": ANSWERS})
    assert response.status_code == 403, response.text


@pytest.mark.parametrize("kind", ["http", "stdio"])
async def test_only_a_relaying_agents_client_is_shown_the_form(kind, team):
    url, tokens = team
    for agent, relays in [("bot", False), ("relay", True)]:
        form = Form(accept({"q1": ["Auth"], "q1_other": "SSO", "q2": "SQLite"}))
        title = f"elicit {kind} {agent} {uuid.uuid4()}"
        async with connect(kind, url, token=tokens[agent], elicitation_callback=form) as session:
            result, _ = await call_while(session, {**ask(title), "waitSeconds": 3}, nothing)
        kept = await titled(url, tokens[agent], title)
        if relays:
            assert result.structured_content["status"] == "answered", result
            assert len(form.shown) == 1
            assert (kept["via"], kept["answeredBy"], kept["relayedBy"]) == ("mcp-client", None, "relay")
        else:
            assert form.shown == [], "a client that may not relay is never shown the form"
            assert result.structured_content["status"] == "pending", result
            assert kept["status"] == "pending"


async def titled(url: str, token: str, title: str) -> dict:
    asks = (await api(url, token, "GET", "/api/v1/asks")).json()["asks"]
    return await stored(url, token, next(a["id"] for a in asks if a["title"] == title))


async def nothing():
    pass


async def test_a_draft_in_the_form_is_kept_for_its_ask_and_its_client_alone(team):
    """keep_draft: what the person entered in askdesk's form in a host, kept
    on the desk for the client that shows it, shown again by show_ask, and
    forgotten once the ask is answered."""
    url, tokens = team
    relay, bot = tokens["relay"], tokens["bot"]
    with anyio.fail_after(15):
        opened = (await rpc(url, relay, "tools/call", {"name": "ask_user", "arguments": ask(
            f"draft {uuid.uuid4()}", None)}))["result"]
    ask_id = opened["structuredContent"]["askId"]

    async def draft(token: str, **arguments) -> dict:
        return (await rpc(url, token, "tools/call", {"name": "keep_draft", "arguments": {
            "askId": ask_id, **arguments}}))["result"]

    fields = [["answer.q1", "Auth"], ["other.q1", "SSO"]]
    assert (await draft(relay, fields=fields))["structuredContent"]["fields"] == fields
    assert (await draft(relay))["structuredContent"]["fields"] == fields
    # Another agent's client does not even find the ask.
    assert (await draft(bot))["isError"] is True
    shown = (await rpc(url, relay, "tools/call", {"name": "show_ask", "arguments": {"askId": ask_id}}))["result"]
    html = shown["structuredContent"]["html"]
    assert 'value="SSO"' in html and re.search(r'value="Auth"[^>]* checked>', html), html
    # Too much to keep: refused, naming the rule, and what was kept stays.
    refused = await draft(relay, fields=[["other.q1", "x" * 70_000]])
    assert refused["isError"] is True and "bytes" in refused["content"][0]["text"], refused
    assert (await draft(relay))["structuredContent"]["fields"] == fields
    answered = (await rpc(url, relay, "tools/call", {"name": "answer_in_app", "arguments": {
        "askId": ask_id, "answers": ANSWERS}}))["result"]
    assert answered["structuredContent"]["Ok"]["status"] == "answered", answered
    assert (await draft(relay))["structuredContent"]["fields"] == []
