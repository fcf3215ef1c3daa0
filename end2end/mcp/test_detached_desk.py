"""The desk `askdesk mcp` starts when none answers is a process of its own:
it outlives the client that started it, two clients starting at once start
one, and `askdesk stop` ends it."""

import uuid
from pathlib import Path

import anyio
import httpx2
import pytest

from conftest import SERVING
from test_ask_user import call_while, claude_code_input, connect, human, no_desk_yet, stop_desk

pytestmark = pytest.mark.anyio

ANSWERS = {"answers": [{"id": "q1", "selected": ["Auth"], "custom": "Audit log"}, {"id": "q2", "selected": ["SQLite"]}]}


async def is_up(url: str) -> bool:
    try:
        async with httpx2.AsyncClient() as http:
            return (await http.get(f"{url}/api/v1/openapi.json")).status_code == 200
    except httpx2.TransportError:
        return False


def serving_lines(data_home: str, url: str) -> list[str]:
    port = url.rsplit(":", 1)[1]
    log = Path(data_home, "askdesk", f"desk-{port}.log")
    return [line for line in log.read_text().splitlines() if line.startswith(SERVING)]


async def test_the_desk_outlives_the_client_that_started_it():
    title = f"outlives {uuid.uuid4()}"
    with no_desk_yet() as desk:
        url, env = desk.url, desk.env
        first_left = anyio.Event()

        async def first_client():
            # Starts the desk, then leaves while the second one waits.
            async with connect("stdio", url, env):
                pass
            first_left.set()

        async def answer_after_the_first_left():
            await first_left.wait()
            assert await is_up(url)
            await human(url, title, "answers", ANSWERS)

        async with connect("stdio", url, env) as second:
            async with anyio.create_task_group() as tg:
                tg.start_soon(first_client)
                result, _ = await call_while(second, claude_code_input(title), answer_after_the_first_left)
        assert result.structured_content["status"] == "answered"
        assert result.structured_content["answers"][0] == {"id": "q1", "selected": ["Auth"], "custom": "Audit log"}
        # Both clients gone: the desk still serves, for the page a person has open.
        assert await is_up(url)
        assert len(serving_lines(desk.data_home, url)) == 1
    assert not await is_up(url)


async def test_two_clients_starting_at_once_start_one_desk_and_stop_ends_it():
    with no_desk_yet() as desk:
        url, env, tmp = desk.url, desk.env, desk.data_home
        both_in = anyio.Event()
        ready = []

        async def client():
            async with connect("stdio", url, env) as session:
                ready.append(session)
                if len(ready) == 2:
                    both_in.set()
                await both_in.wait()

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                tg.start_soon(client)
                tg.start_soon(client)
        assert len(serving_lines(tmp, url)) == 1
        log = Path(tmp, "askdesk", f"desk-{url.rsplit(':', 1)[1]}.log").read_text()
        assert "in use" not in log and "cannot listen" not in log, log
        said = stop_desk(url, tmp)
        assert said.startswith("stopped the askdesk at"), said
        assert not await is_up(url)
        # Stopping again is not an error: nothing runs.
        assert stop_desk(url, tmp).startswith("no askdesk")
