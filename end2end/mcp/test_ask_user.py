"""ask_user through the official Python MCP SDK, over streamable HTTP and
stdio, answered by a "human" through askdesk's HTTP API."""

import contextlib
import dataclasses
import os
import subprocess
import tempfile
import uuid

import anyio
import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from conftest import BINARY, SITE, free_port

pytestmark = pytest.mark.anyio

TRANSPORTS = ["http", "stdio"]


@contextlib.asynccontextmanager
async def connect(kind: str, url: str, env: dict | None = None, token: str | None = None, **session_options):
    """An initialized client session to askdesk over `kind`, with `token`
    when given (a bearer header, or `askdesk mcp`'s ASKDESK_TOKEN);
    `session_options` go to the SDK's ClientSession (e.g.
    `elicitation_callback`)."""
    if token and kind != "http":
        env = {**(env or {}), "ASKDESK_TOKEN": token}
    if kind == "http":
        client = None
        if token:
            client = httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300)
            )
        transport = streamable_http_client(f"{url}/mcp", http_client=client)
    else:
        params = StdioServerParameters(
            command=str(BINARY),
            args=["mcp"],
            env={"ASKDESK_URL": url, "ASKDESK_SITE_ROOT": SITE, "RUST_LOG": "info", **(env or {})},
        )
        transport = stdio_client(params)
    async with transport as streams:
        async with ClientSession(streams[0], streams[1], **session_options) as session:
            await session.initialize()
            yield session


def claude_code_input(title: str) -> dict:
    """Claude Code's AskUserQuestion shape: no ids."""
    return {
        "title": title,
        "questions": [
            {
                "question": "Which features should ship?",
                "header": "Features",
                "multiSelect": True,
                "options": [
                    {"label": "Auth", "description": "Sign-in with a token"},
                    {"label": "Logging", "description": "Structured logs"},
                    {"label": "Metrics", "description": "Counters"},
                ],
            },
            {
                "question": "Which database?",
                "header": "Database",
                "multiSelect": False,
                "options": [{"label": "SQLite", "description": "Embedded"}, {"label": "PostgreSQL", "description": "Server"}],
            },
        ],
    }


async def pending_ask(url: str, title: str) -> dict:
    """Waits until the ask titled `title` is pending, as a human's desk would show it."""
    async with httpx2.AsyncClient() as http:
        with anyio.fail_after(20):
            while True:
                asks = (await http.get(f"{url}/api/v1/asks", params={"status": "pending"})).json()["asks"]
                for ask in asks:
                    if ask["title"] == title:
                        return ask
                await anyio.sleep(0.05)


async def human(url: str, title: str, action: str, body: dict | None) -> dict:
    """Finds the ask and answers or declines it through the HTTP API."""
    ask = await pending_ask(url, title)
    async with httpx2.AsyncClient() as http:
        response = await http.post(f"{url}/api/v1/asks/{ask['id']}/{action}", json=body)
        assert response.status_code == 200, response.text
    return ask


async def call_while(session: ClientSession, arguments: dict, act) -> tuple:
    """Calls ask_user while `act()` plays the human; returns the result and progress messages."""
    messages: list[str] = []

    async def on_progress(progress, total, message):
        messages.append(message or "")

    result = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(act)
        with anyio.fail_after(60):
            result = await session.call_tool("ask_user", arguments, progress_callback=on_progress)
    return result, messages


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_lists_ask_user_with_its_input_and_output_schemas(kind, server_url):
    async with connect(kind, server_url) as session:
        tools = (await session.list_tools()).tools
    assert [t.name for t in tools] == ["ask_user", "await_answer", "cancel_ask"]
    tool = tools[0]
    question = tool.input_schema["properties"]["questions"]["items"]
    assert tool.input_schema["required"] == ["questions"]
    assert {"question", "header", "options", "multiSelect", "id"} <= set(question["properties"])
    assert question["required"] == ["question"]
    assert {"title", "timeoutSeconds", "waitSeconds"} <= set(tool.input_schema["properties"])
    assert tool.output_schema["properties"]["status"]["enum"] == ["pending", "answered", "declined", "cancelled", "expired"]
    for other in tools[1:]:
        assert other.input_schema["required"] == ["askId"]
        assert other.output_schema == tool.output_schema


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_a_combined_multi_select_answer_reaches_the_agent(kind, server_url):
    title = f"combined {kind} {uuid.uuid4()}"
    answers = {"answers": [
        {"id": "q1", "selected": ["Logging", "Auth"], "custom": "Rate limiting"},
        {"id": "q2", "selected": ["SQLite"]},
    ]}
    async with connect(kind, server_url) as session:
        result, progress = await call_while(
            session, claude_code_input(title), lambda: human(server_url, title, "answers", answers)
        )
    assert not result.is_error, result.content
    assert result.structured_content == {
        "status": "answered",
        "answers": [
            {"id": "q1", "selected": ["Auth", "Logging"], "custom": "Rate limiting"},
            {"id": "q2", "selected": ["SQLite"]},
        ],
    }
    text = result.content[0].text
    assert 'Selected options: ["Auth", "Logging"]' in text, text
    assert 'Text typed by the user: "Rate limiting"' in text, text
    # The client heard where the human answers.
    assert any("/asks/" in m for m in progress), progress


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_a_declined_ask_returns_the_reason(kind, server_url):
    title = f"declined {kind} {uuid.uuid4()}"
    async with connect(kind, server_url) as session:
        result, _ = await call_while(
            session, claude_code_input(title), lambda: human(server_url, title, "decline", {"reason": "Not now"})
        )
    assert not result.is_error
    assert result.structured_content == {"status": "declined", "answers": [], "reason": "Not now"}
    assert '"Not now"' in result.content[0].text


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_an_ask_nobody_answers_in_time_returns_the_agents_own_defaults(kind, server_url):
    """defaultAnswers with timeoutSeconds: the call ends expired, marked
    defaulted, and the text says no person answered."""
    arguments = {
        "title": f"defaults {kind} {uuid.uuid4()}",
        "timeoutSeconds": 1,
        "questions": [{"id": "go", "question": "Deploy tonight?", "options": [{"label": "Yes"}, {"label": "No"}]}],
        "defaultAnswers": [{"id": "go", "selected": ["No"]}],
    }
    async with connect(kind, server_url) as session:
        with anyio.fail_after(30):
            result = await session.call_tool("ask_user", arguments)
    assert not result.is_error
    assert result.structured_content == {
        "status": "expired", "answers": [{"id": "go", "selected": ["No"]}], "defaulted": True,
    }
    assert "No person answered" in result.content[0].text


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_invalid_input_is_a_tool_error_listing_every_problem_with_its_path(kind, server_url):
    arguments = {"questions": [
        {"question": "Pick", "options": [{"label": "A"}, {"label": "A"}]},
        {"question": "   ", "multiSelect": True},
    ]}
    async with connect(kind, server_url) as session:
        result = await session.call_tool("ask_user", arguments)
    assert result.is_error
    text = result.content[0].text
    for expected in [
        "questions[0].options[1].label", "duplicate_option",
        "questions[1].question", "empty_question",
        "questions[1].multiSelect", "multi_select_without_options",
    ]:
        assert expected in text, text
    async with httpx2.AsyncClient() as http:
        asks = (await http.get(f"{server_url}/api/v1/asks")).json()["asks"]
    assert not [a for a in asks if a["questionCount"] == 2 and a["title"] is None]


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_an_unknown_tool_is_refused_naming_the_tools_there_are(kind, server_url):
    async with connect(kind, server_url) as session:
        offered = sorted(t.name for t in (await session.list_tools()).tools)
        with pytest.raises(Exception) as refused:
            await session.call_tool("ask_the_user", {})
    message = str(refused.value)
    assert "ask_the_user" in message, message
    for name in offered:
        assert name in message, message
    # Arguments a tool does not take say what it takes.
    async with connect(kind, server_url) as session:
        result = await session.call_tool("await_answer", {"ask": "x"})
    assert result.is_error
    assert "await_answer takes" in result.content[0].text
    assert '"askId"' in result.content[0].text


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_cancelling_the_call_cancels_the_ask(kind, server_url):
    title = f"cancelled {kind} {uuid.uuid4()}"
    async with connect(kind, server_url) as session:
        async with anyio.create_task_group() as tg:
            tg.start_soon(session.call_tool, "ask_user", claude_code_input(title))
            ask = await pending_ask(server_url, title)
            tg.cancel_scope.cancel()
        async with httpx2.AsyncClient() as http:
            with anyio.fail_after(20):
                while (await http.get(f"{server_url}/api/v1/asks/{ask['id']}")).json()["status"] != "cancelled":
                    await anyio.sleep(0.05)


@dataclasses.dataclass
class NoDeskYet:
    """A free loopback address where a stdio client will start a desk, with
    its own database and data folder."""

    url: str
    data_home: str
    env: dict


@contextlib.contextmanager
def no_desk_yet():
    """A place for a desk that clients start; stopped (`askdesk stop`) after."""
    url = f"http://127.0.0.1:{free_port()}"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            yield NoDeskYet(url, tmp, {"ASKDESK_DATABASE": f"{tmp}/asks.db", "XDG_DATA_HOME": tmp})
        finally:
            stop_desk(url, tmp)


async def test_stdio_starts_a_server_when_none_answers():
    title = f"auto-started {uuid.uuid4()}"
    with no_desk_yet() as desk:
        url = desk.url
        async with connect("stdio", url, desk.env) as session:
            result, _ = await call_while(
                session,
                claude_code_input(title),
                lambda: human(url, title, "answers", {"answers": [
                    {"id": "q1", "selected": ["Metrics"]}, {"id": "q2", "selected": [], "custom": "DuckDB"},
                ]}),
            )
        assert result.structured_content["answers"][1] == {"id": "q2", "selected": [], "custom": "DuckDB"}
        assert os.path.exists(f"{desk.data_home}/asks.db")


def stop_desk(url: str, data_home: str) -> str:
    """`askdesk stop` for the desk a client started at `url`."""
    done = subprocess.run(
        [str(BINARY), "stop"],
        env={**os.environ, "ASKDESK_URL": url, "XDG_DATA_HOME": data_home},
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
