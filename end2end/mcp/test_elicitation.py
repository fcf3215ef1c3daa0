"""Answering inside the MCP client: askdesk also puts ask_user to the
client's own form (elicitation) when asked to, through the official Python
SDK's elicitation callback. The form races the page; the first answer wins;
what the form sends goes through the desk's validator."""

import uuid

import anyio
import httpx2
import mcp.types as types
import pytest

from test_ask_user import TRANSPORTS, call_while, claude_code_input, connect, human, pending_ask

pytestmark = pytest.mark.anyio


class Form:
    """An elicitation callback that plays the person at the client: each
    call takes the next reply; it records what it was shown."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.shown: list = []
        self.cancelled = anyio.Event()

    async def __call__(self, context, params):
        self.shown.append(params)
        reply = self.replies.pop(0)
        if callable(reply):
            try:
                return await reply()
            except anyio.get_cancelled_exc_class():
                self.cancelled.set()
                raise
        return reply


def accept(content: dict):
    return types.ElicitResult(action="accept", content=content)


def ask(title: str, answer_in: str | None = "client") -> dict:
    arguments = claude_code_input(title)
    if answer_in:
        arguments["answerIn"] = answer_in
    return arguments


async def status_of(url: str, title: str) -> str:
    async with httpx2.AsyncClient() as http:
        asks = (await http.get(f"{url}/api/v1/asks")).json()["asks"]
    return next(a["status"] for a in asks if a["title"] == title)


async def ask_titled(url: str, title: str) -> dict:
    async with httpx2.AsyncClient() as http:
        asks = (await http.get(f"{url}/api/v1/asks")).json()["asks"]
        id = next(a["id"] for a in asks if a["title"] == title)
        return (await http.get(f"{url}/api/v1/asks/{id}")).json()


async def nothing():
    pass


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_the_form_keeps_labels_and_text_on_multi_select_and_text_overrides_single_select(kind, server_url):
    form = Form(accept({"q1": ["Logging", "Auth"], "q1_other": "Rate limiting", "q2": "SQLite", "q2_other": "DuckDB"}))
    title = f"form {kind} {uuid.uuid4()}"
    async with connect(kind, server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(title), nothing)
    assert result.structured_content == {"status": "answered", "answers": [
        {"id": "q1", "selected": ["Auth", "Logging"], "custom": "Rate limiting"},
        {"id": "q2", "selected": [], "custom": "DuckDB"},
    ]}
    # Answered in the agent's own client, by no person of the desk.
    answered = await ask_titled(server_url, title)
    assert (answered["via"], answered["answeredBy"]) == ("mcp-client", None)
    schema = form.shown[0].requested_schema
    assert list(schema["properties"]) == ["q1", "q1_other", "q2", "q2_other"]
    assert schema["properties"]["q1"]["type"] == "array"
    assert [c["const"] for c in schema["properties"]["q1"]["items"]["anyOf"]] == ["Auth", "Logging", "Metrics"]
    assert [c["const"] for c in schema["properties"]["q2"]["oneOf"]] == ["SQLite", "PostgreSQL"]
    assert schema["properties"]["q2_other"]["type"] == "string"
    assert "Answer here, or at http" in form.shown[0].message


async def test_declining_in_the_form_declines_the_ask(server_url):
    form = Form(types.ElicitResult(action="decline"))
    async with connect("http", server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(f"form decline {uuid.uuid4()}"), nothing)
    assert result.structured_content["status"] == "declined"


async def test_cancelling_the_form_leaves_the_ask_open_for_the_page(server_url):
    title = f"form cancel {uuid.uuid4()}"
    form = Form(types.ElicitResult(action="cancel"))

    async def page_answers_after_the_form_closed():
        with anyio.fail_after(20):
            while not form.shown:
                await anyio.sleep(0.05)
        assert await status_of(server_url, title) == "pending"
        await human(server_url, title, "answers", {"answers": [
            {"id": "q1", "selected": ["Metrics"]}, {"id": "q2", "selected": ["PostgreSQL"]},
        ]})

    async with connect("http", server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(title), page_answers_after_the_form_closed)
    assert result.structured_content["answers"][1] == {"id": "q2", "selected": ["PostgreSQL"]}


async def test_content_the_validator_refuses_never_reaches_the_agent_and_the_form_is_asked_again(server_url):
    title = f"form invalid {uuid.uuid4()}"

    async def still_pending_then_close():
        assert await status_of(server_url, title) == "pending"
        return types.ElicitResult(action="cancel")

    form = Form(
        accept({"q1": "Auth", "q2": 3}),              # wrong types
        accept({"q1": ["Telemetry"], "q2": "SQLite"}),  # a label the question does not have
        still_pending_then_close,
    )

    async def page_answers_once_the_form_gave_up():
        with anyio.fail_after(20):
            while len(form.shown) < 3 or form.replies:
                await anyio.sleep(0.05)
        await human(server_url, title, "answers", {"answers": [
            {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]},
        ]})

    async with connect("http", server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(title), page_answers_once_the_form_gave_up)
    assert result.structured_content["answers"] == [
        {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]},
    ]
    assert "q1 must be a list of option labels" in form.shown[1].message
    assert "q2 must be one option's label" in form.shown[1].message
    assert "Telemetry" in form.shown[2].message


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_when_the_page_answers_first_the_form_is_withdrawn(kind, server_url):
    title = f"form race {kind} {uuid.uuid4()}"
    form = Form(anyio.sleep_forever)
    async with connect(kind, server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(title), lambda: human(server_url, title, "answers", {"answers": [
            {"id": "q1", "selected": ["Logging"]}, {"id": "q2", "selected": ["SQLite"]},
        ]}))
        assert result.structured_content["answers"][0] == {"id": "q1", "selected": ["Logging"]}
        with anyio.fail_after(10):
            await form.cancelled.wait()


async def test_elicit_asks_in_the_client_unless_a_call_says_desk(server_url):
    form = Form(accept({"q1": ["Metrics"], "q2": "PostgreSQL"}))
    env = {"ASKDESK_ELICIT": "true"}
    async with connect("stdio", server_url, env, elicitation_callback=form) as session:
        result, _ = await call_while(session, ask(f"elicit flag {uuid.uuid4()}", answer_in=None), nothing)
        assert result.structured_content["answers"][1] == {"id": "q2", "selected": ["PostgreSQL"]}
        title = f"desk only {uuid.uuid4()}"
        result, _ = await call_while(session, ask(title, answer_in="desk"), lambda: human(
            server_url, title, "decline", {"reason": "not now"}))
        assert result.structured_content["status"] == "declined"
    assert len(form.shown) == 1


@pytest.mark.parametrize("kind", TRANSPORTS)
async def test_typed_questions_get_typed_fields_and_their_replies_are_validated(kind, server_url):
    """A typed question's field is elicitation's own primitive (an integer
    with its bounds, a date string); a reply out of range is refused by the
    desk's validator and the form is shown again, saying why."""
    form = Form(accept({"count": 12, "day": "2026-12-24"}), accept({"count": 4, "day": "2026-12-24"}))
    title = f"typed {kind} {uuid.uuid4()}"
    arguments = {
        "title": title,
        "answerIn": "client",
        "questions": [
            {"id": "count", "question": "How many replicas?", "format": "integer", "minimum": 1, "maximum": 10, "default": 3},
            {"id": "day", "question": "Which day?", "format": "date"},
        ],
    }
    async with connect(kind, server_url, elicitation_callback=form) as session:
        result, _ = await call_while(session, arguments, nothing)
    assert result.structured_content == {"status": "answered", "answers": [
        {"id": "count", "selected": [], "custom": "4"},
        {"id": "day", "selected": [], "custom": "2026-12-24"},
    ]}
    schema = form.shown[0].requested_schema["properties"]
    assert schema["count"]["type"] == "integer"
    assert (schema["count"]["minimum"], schema["count"]["maximum"], schema["count"]["default"]) == (1, 10, 3)
    assert (schema["day"]["type"], schema["day"]["format"]) == ("string", "date")
    assert "at most 10" in form.shown[1].message
