"""Clients on MCP's current revision (2026-07-28: no initialize, no
session, no requests from server to client): the official Python SDK's
modern `Client`. ask_user's form comes back as an InputRequiredResult and
the client calls again with the person's reply; the reply goes through
the desk's validator; the page races it, the first answer wins."""

import contextlib
import uuid

import anyio
import httpx2
import mcp.types as types
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from conftest import BINARY, SITE
from test_ask_user import TRANSPORTS, human
from test_elicitation import Form, accept, ask, ask_titled, status_of

pytestmark = pytest.mark.anyio

AGENT = types.Implementation(name="modern-agent", version="2.3")


@contextlib.asynccontextmanager
async def modern(kind: str, url: str, **options):
    """A 2026-07-28 client of askdesk over `kind`, found by `server/discover`."""
    if kind == "http":
        server = f"{url}/mcp"
    else:
        server = StdioServerParameters(
            command=str(BINARY),
            args=["mcp"],
            env={"ASKDESK_URL": url, "ASKDESK_SITE_ROOT": SITE, "RUST_LOG": "info"},
        )
    async with Client(server, mode="auto", client_info=AGENT, **options) as client:
        assert client.session.protocol_version == "2026-07-28"
        yield client


async def first_round(client: Client, arguments: dict) -> types.InputRequiredResult:
    with anyio.fail_after(30):
        result = await client.session.call_tool("ask_user", arguments, allow_input_required=True)
    assert isinstance(result, types.InputRequiredResult), result
    return result


async def retry(client: Client, arguments: dict, state: str, reply: dict):
    with anyio.fail_after(30):
        return await client.session.call_tool(
            "ask_user", arguments, input_responses={"answer": reply}, request_state=state,
            allow_input_required=True,
        )


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_a_modern_client_answers_in_its_own_form(kind, server_url):
    form = Form(accept({"q1": ["Logging", "Auth"], "q1_other": "Rate limiting", "q2": "SQLite", "q2_other": "DuckDB"}))
    title = f"modern form {kind} {uuid.uuid4()}"
    async with modern(kind, server_url, elicitation_callback=form) as client:
        with anyio.fail_after(60):
            result = await client.call_tool("ask_user", ask(title))
    # Labels and text together on multi-select; text overrides single-select.
    assert result.structured_content == {"status": "answered", "answers": [
        {"id": "q1", "selected": ["Auth", "Logging"], "custom": "Rate limiting"},
        {"id": "q2", "selected": [], "custom": "DuckDB"},
    ]}
    answered = await ask_titled(server_url, title)
    assert (answered["via"], answered["answeredBy"]) == ("mcp-client", None)
    # The agent is the client that asked, as it names itself on each request.
    assert answered["agent"] == "modern-agent 2.3"
    schema = form.shown[0].requested_schema
    assert list(schema["properties"]) == ["q1", "q1_other", "q2", "q2_other"]
    assert "Answer here, or at http" in form.shown[0].message


async def test_the_form_comes_back_as_input_required_and_a_decline_declines(server_url):
    title = f"modern decline {uuid.uuid4()}"
    arguments = ask(title)
    async with modern("http", server_url, elicitation_callback=Form()) as client:
        first = await first_round(client, arguments)
        assert list(first.input_requests) == ["answer"]
        asked = first.input_requests["answer"]
        assert asked.method == "elicitation/create"
        assert asked.params.mode == "form"
        assert "q1_other" in asked.params.requested_schema["properties"]
        # The ask waits on the desk meanwhile, like any other.
        assert await status_of(server_url, title) == "pending"
        result = await retry(client, arguments, first.request_state, {"action": "decline"})
    assert result.structured_content["status"] == "declined"
    assert (await ask_titled(server_url, title))["via"] == "mcp-client"


async def test_a_refused_reply_gets_the_form_again_saying_why(server_url):
    title = f"modern refused {uuid.uuid4()}"
    arguments = ask(title)
    async with modern("http", server_url, elicitation_callback=Form()) as client:
        first = await first_round(client, arguments)
        again = await retry(client, arguments, first.request_state,
                            {"action": "accept", "content": {"q1": ["Telemetry"], "q2": 3}})
        assert isinstance(again, types.InputRequiredResult), again
        assert again.request_state != first.request_state
        message = again.input_requests["answer"].params.message
        assert message.startswith("That answer was not taken:")
        assert "q2 must be one option's label" in message
        # Nothing was stored.
        assert await status_of(server_url, title) == "pending"
        third = await retry(client, arguments, again.request_state,
                            {"action": "accept", "content": {"q1": ["Telemetry"], "q2": "SQLite"}})
        assert "Telemetry" in third.input_requests["answer"].params.message
        done = await retry(client, arguments, third.request_state,
                           {"action": "accept", "content": {"q1": ["Metrics"], "q2": "PostgreSQL"}})
    assert done.structured_content["answers"] == [
        {"id": "q1", "selected": ["Metrics"]}, {"id": "q2", "selected": ["PostgreSQL"]},
    ]


async def test_when_the_page_answers_first_the_retry_gets_the_page_s_answer(server_url):
    title = f"modern race {uuid.uuid4()}"
    arguments = ask(title)
    async with modern("http", server_url, elicitation_callback=Form()) as client:
        first = await first_round(client, arguments)
        await human(server_url, title, "answers", {"answers": [
            {"id": "q1", "selected": ["Logging"]}, {"id": "q2", "selected": ["SQLite"]},
        ]})
        late = await retry(client, arguments, first.request_state,
                           {"action": "accept", "content": {"q1": ["Auth"], "q2": "PostgreSQL"}})
    assert late.structured_content["answers"] == [
        {"id": "q1", "selected": ["Logging"]}, {"id": "q2", "selected": ["SQLite"]},
    ]
    assert (await ask_titled(server_url, title))["via"] == "api"


async def test_cancelling_the_form_leaves_the_ask_to_the_page(server_url):
    title = f"modern cancel {uuid.uuid4()}"
    arguments = ask(title)
    async with modern("http", server_url, elicitation_callback=Form()) as client:
        first = await first_round(client, arguments)
        async with anyio.create_task_group() as tg:
            tg.start_soon(human, server_url, title, "answers", {"answers": [
                {"id": "q1", "selected": ["Metrics"]}, {"id": "q2", "selected": ["PostgreSQL"]},
            ]})
            result = await retry(client, arguments, first.request_state, {"action": "cancel"})
    assert result.structured_content["answers"][1] == {"id": "q2", "selected": ["PostgreSQL"]}


async def test_a_state_askdesk_did_not_give_or_for_other_questions_is_refused(server_url):
    title = f"modern forged {uuid.uuid4()}"
    arguments = ask(title)
    async with modern("http", server_url, elicitation_callback=Form()) as client:
        with pytest.raises(MCPError) as forged:
            await retry(client, arguments, "askdesk.1." + "0" * 32 + ".0", {"action": "decline"})
        assert forged.value.error.code == -32602
        first = await first_round(client, arguments)
        other = ask(title)
        other["questions"] = other["questions"][:1]
        with pytest.raises(MCPError) as borrowed:
            await retry(client, other, first.request_state, {"action": "decline"})
        assert borrowed.value.error.code == -32602
        assert "questions differ" in borrowed.value.error.message
    assert await status_of(server_url, title) == "pending"


async def test_a_modern_client_without_a_form_waits_for_the_page(server_url):
    title = f"modern no form {uuid.uuid4()}"
    async with modern("http", server_url) as client:
        async with anyio.create_task_group() as tg:
            tg.start_soon(human, server_url, title, "answers", {"answers": [
                {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]},
            ]})
            with anyio.fail_after(60):
                result = await client.call_tool("ask_user", ask(title))
    assert result.structured_content["status"] == "answered"
    assert (await ask_titled(server_url, title))["agent"] == "modern-agent 2.3"
