"""Waits that outlive the client's call: ask_user with waitSeconds returns
the ask still pending, await_answer goes on waiting, cancel_ask withdraws
it; through the official Python MCP SDK over both transports."""

import uuid

import anyio
import httpx2
import pytest

from test_ask_user import TRANSPORTS, claude_code_input, connect, human

pytestmark = pytest.mark.anyio

COMBINED = {"answers": [
    {"id": "q1", "selected": ["Logging", "Auth"], "custom": "Rate limiting"},
    {"id": "q2", "selected": ["SQLite"]},
]}


async def api_ask(url: str, ask_id: str) -> dict:
    async with httpx2.AsyncClient() as http:
        return (await http.get(f"{url}/api/v1/asks/{ask_id}")).json()


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_a_wait_that_runs_out_returns_the_pending_ask_and_await_answer_gets_the_answer(kind, server_url):
    title = f"long wait {kind} {uuid.uuid4()}"
    async with connect(kind, server_url) as session:
        with anyio.fail_after(30):
            first = await session.call_tool("ask_user", {**claude_code_input(title), "waitSeconds": 1})
        assert not first.is_error, first.content
        pending = first.structured_content
        assert pending["status"] == "pending"
        assert pending["url"].endswith(f"/asks/{pending['askId']}")
        assert "await_answer" in first.content[0].text
        # Not cancelled: the human can still answer.
        assert (await api_ask(server_url, pending["askId"]))["status"] == "pending"

        with anyio.fail_after(30):
            again = await session.call_tool("await_answer", {"askId": pending["askId"], "waitSeconds": 1})
        assert not again.is_error, again.content
        assert again.structured_content == pending

        result = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(human, server_url, title, "answers", COMBINED)
            with anyio.fail_after(30):
                result = await session.call_tool("await_answer", {"askId": pending["askId"]})
    assert not result.is_error, result.content
    assert result.structured_content["status"] == "answered"
    assert result.structured_content["answers"][0] == {
        "id": "q1", "selected": ["Auth", "Logging"], "custom": "Rate limiting",
    }
    assert '"Rate limiting"' in result.content[0].text


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_cancel_ask_withdraws_a_pending_ask_and_reports_one_already_answered(kind, server_url):
    async with connect(kind, server_url) as session:
        title = f"withdrawn {kind} {uuid.uuid4()}"
        with anyio.fail_after(30):
            first = await session.call_tool("ask_user", {**claude_code_input(title), "waitSeconds": 1})
            cancelled = await session.call_tool(
                "cancel_ask", {"askId": first.structured_content["askId"], "reason": "not needed"}
            )
        assert not cancelled.is_error, cancelled.content
        assert cancelled.structured_content["status"] == "cancelled"
        withdrawn = await api_ask(server_url, first.structured_content["askId"])
        assert (withdrawn["status"], withdrawn["via"]) == ("cancelled", "mcp")

        title = f"answered first {kind} {uuid.uuid4()}"
        with anyio.fail_after(30):
            first = await session.call_tool("ask_user", {**claude_code_input(title), "waitSeconds": 1})
        await human(server_url, title, "answers", COMBINED)
        with anyio.fail_after(30):
            late = await session.call_tool("cancel_ask", {"askId": first.structured_content["askId"]})
    assert not late.is_error, late.content
    assert late.structured_content["status"] == "answered"


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_await_answer_on_an_unknown_ask_is_a_tool_error(kind, server_url):
    async with connect(kind, server_url) as session:
        with anyio.fail_after(30):
            result = await session.call_tool("await_answer", {"askId": "0" * 32})
    assert result.is_error
    assert "no ask" in result.content[0].text


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_a_retried_ask_user_with_its_idempotency_key_reattaches_to_the_same_ask(kind, server_url):
    title = f"retried {kind} {uuid.uuid4()}"
    arguments = {**claude_code_input(title), "waitSeconds": 1, "idempotencyKey": f"call-{uuid.uuid4()}"}
    async with connect(kind, server_url) as session:
        with anyio.fail_after(30):
            first = await session.call_tool("ask_user", arguments)
            again = await session.call_tool("ask_user", arguments)
            other = await session.call_tool("ask_user", {**arguments, "title": "something else"})
    assert first.structured_content["status"] == "pending"
    assert again.structured_content["askId"] == first.structured_content["askId"]
    assert other.is_error
    assert "idempotency_conflict" in other.content[0].text
    async with httpx2.AsyncClient() as http:
        asks = (await http.get(f"{server_url}/api/v1/asks")).json()["asks"]
    assert [a["title"] for a in asks].count(title) == 1
