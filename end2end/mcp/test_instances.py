"""Several askdesk instances on one PostgreSQL database are one desk, also
for MCP over HTTP: one client session whose requests alternate between two
instances, as a balancer without stickiness would send them."""

import contextlib
import itertools
import os
import signal
import subprocess
import tempfile
import uuid

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from conftest import BINARY, SITE, wait_for_url
from test_ask_user import call_while, claude_code_input, human

pytestmark = pytest.mark.anyio


class Alternating(httpx2.AsyncBaseTransport):
    """Sends each request to the next instance in turn."""

    def __init__(self, urls: list[str]):
        self.targets = itertools.cycle([httpx2.URL(u) for u in urls])
        self.inner = httpx2.AsyncHTTPTransport()
        self.sent: list[str] = []

    async def handle_async_request(self, request):
        target = next(self.targets)
        request.url = request.url.copy_with(host=target.host, port=target.port)
        request.headers["host"] = f"{target.host}:{target.port}"
        self.sent.append(f"{target.port} {request.method}")
        return await self.inner.handle_async_request(request)

    async def aclose(self):
        await self.inner.aclose()


@contextlib.contextmanager
def instances_on_one_database(count: int):
    """`count` askdesk processes on a schema of their own: (url, process) each."""
    base = os.environ.get("ASKDESK_TEST_POSTGRES")
    assert base, "ASKDESK_TEST_POSTGRES must name a PostgreSQL to test on (scripts/dev.sh sets it)"
    schema = f"mcp_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", base, "-qc", f"CREATE SCHEMA {schema}"], check=True)
    url = f"{base}{'&' if '?' in base else '?'}options=-c%20search_path%3D{schema}"
    processes = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            started = []
            for name in "abcdefgh"[:count]:
                process = subprocess.Popen(
                    [str(BINARY), "--addr", "127.0.0.1:0", "--site-root", SITE],
                    # A drain in which a stopping instance's replies go out.
                    env={**os.environ, "ASKDESK_DATABASE": url, "ASKDESK_SHUTDOWN_GRACE": "2"},
                    stdout=subprocess.PIPE, stderr=open(f"{tmp}/{name}.log", "w"), text=True,
                )
                processes.append(process)
                started.append((wait_for_url(process), process))
            yield started
        finally:
            for process in processes:
                if process.poll() is None:
                    process.terminate()
                process.wait(timeout=10)
            subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False)


@pytest.fixture
def two_instances():
    with instances_on_one_database(2) as started:
        yield [url for url, _ in started]


@pytest.fixture
def two_processes():
    with instances_on_one_database(2) as started:
        yield started


async def test_one_mcp_session_across_two_instances(two_instances):
    a, b = two_instances
    alternating = Alternating([a, b])
    title = f"two instances {uuid.uuid4()}"
    async with httpx2.AsyncClient(transport=alternating, timeout=httpx2.Timeout(30, read=120)) as http:
        async with streamable_http_client(f"{a}/mcp", http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                tools = await session.list_tools()
                assert "ask_user" in [t.name for t in tools.tools]
                # Asked through one instance, answered through the other.
                result, _ = await call_while(
                    session,
                    claude_code_input(title),
                    lambda: human(b, title, "answers", {"answers": [
                        {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["PostgreSQL"]},
                    ]}),
                )
                assert result.structured_content["answers"][1] == {"id": "q2", "selected": ["PostgreSQL"]}
                more = await session.call_tool("await_answer", {"askId": "0" * 32})
                assert more.is_error
    ports = {line.split()[0] for line in alternating.sent}
    assert len(ports) == 2, alternating.sent


async def test_a_modern_client_answers_in_its_form_across_two_instances(two_instances):
    """On 2026-07-28 the form's round trip holds nothing in a process: the
    first round on one instance, the person's reply on the other."""
    from mcp import Client

    from test_elicitation import Form, accept, ask

    a, b = two_instances
    alternating = Alternating([a, b])
    title = f"two instances modern {uuid.uuid4()}"
    form = Form(
        accept({"q1": ["Telemetry"], "q2": "SQLite"}),
        accept({"q1": ["Metrics"], "q1_other": "Tracing", "q2": "PostgreSQL"}),
    )
    async with httpx2.AsyncClient(transport=alternating, timeout=httpx2.Timeout(30, read=120)) as http:
        transport = streamable_http_client(f"{a}/mcp", http_client=http)
        async with Client(transport, mode="auto", elicitation_callback=form) as client:
            assert client.session.protocol_version == "2026-07-28"
            alternating.sent.clear()
            result = await client.call_tool("ask_user", ask(title))
    assert result.structured_content["answers"] == [
        {"id": "q1", "selected": ["Metrics"], "custom": "Tracing"},
        {"id": "q2", "selected": ["PostgreSQL"]},
    ]
    assert "Telemetry" in form.shown[1].message
    # The ask, the refused reply and the answer (and the SDK's own listing
    # of the tools), spread over both instances.
    calls = [line for line in alternating.sent if line.endswith("POST")]
    assert len(calls) >= 3 and len({line.split()[0] for line in calls}) == 2, alternating.sent


async def test_a_task_is_answered_and_read_on_any_instance(two_instances):
    """A task is its ask: made on one instance, its form answered on the
    other, and why a reply was refused is known to both."""
    from test_elicitation import ask
    from test_tasks import FORM, extend, result

    a, b = two_instances
    caps = extend(FORM)
    title = f"two instances task {uuid.uuid4()}"
    created = await result(a, "tools/call", {"name": "ask_user", "arguments": ask(title)}, caps)
    task = {"taskId": created["taskId"]}
    await result(b, "tasks/update", {**task, "inputResponses": {
        "answer": {"action": "accept", "content": {"q1": ["Telemetry"], "q2": "SQLite"}}}}, caps)
    again = await result(a, "tasks/get", task, caps)
    assert "Telemetry" in again["inputRequests"]["answer-2"]["params"]["message"]
    await result(b, "tasks/update", {**task, "inputResponses": {
        "answer-2": {"action": "accept", "content": {"q1": ["Auth"], "q2": "PostgreSQL"}}}}, caps)
    done = await result(a, "tasks/get", task, caps)
    assert done["result"]["structuredContent"]["answers"] == [
        {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["PostgreSQL"]},
    ]


async def test_a_draft_kept_on_one_instance_is_read_on_the_other(two_instances):
    """askdesk's form in a host keeps the person's draft on the desk
    (keep_draft): a view shown again, whose calls reach another instance,
    gets it back, and the server-rendered form holds it."""
    from test_elicitation import ask
    from test_tasks import result

    a, b = two_instances
    apps = {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}
    opened = await result(a, "tools/call", {"name": "ask_user", "arguments": ask(
        f"two instances draft {uuid.uuid4()}", None)}, apps)
    ask_id = opened["structuredContent"]["askId"]
    fields = [["answer.q1", "Auth"], ["other.q1", "kept across instances"]]
    kept = await result(a, "tools/call", {"name": "keep_draft", "arguments": {
        "askId": ask_id, "fields": fields}}, apps)
    assert kept["structuredContent"]["fields"] == fields
    read = await result(b, "tools/call", {"name": "keep_draft", "arguments": {"askId": ask_id}}, apps)
    assert read["structuredContent"]["fields"] == fields
    shown = await result(b, "tools/call", {"name": "show_ask", "arguments": {"askId": ask_id}}, apps)
    assert 'value="kept across instances"' in shown["structuredContent"]["html"], shown
    # Ended on one instance, forgotten for both.
    await result(a, "tools/call", {"name": "cancel_ask", "arguments": {"askId": ask_id}}, apps)
    gone = await result(b, "tools/call", {"name": "keep_draft", "arguments": {"askId": ask_id}}, apps)
    assert gone["structuredContent"]["fields"] == []
    assert (await result(a, "tools/call", {"name": "keep_draft", "arguments": {
        "askId": ask_id}}, apps))["structuredContent"]["fields"] == []


async def test_a_call_waiting_on_a_stopping_instance_is_told_to_come_back_and_its_ask_stays(two_processes):
    """A restart of the instance an agent waits on is not the agent's
    cancel: the call is told to come back to its ask (await_answer), the
    ask stays pending, and the answer reaches the agent on the other one."""
    (a, process), (b, _) = two_processes
    title = f"stopping instance {uuid.uuid4()}"
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=120)) as http:
        async with streamable_http_client(f"{a}/mcp", http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()

                async def stop_a():
                    # Once the ask is at the desk, the instance stops.
                    with anyio.fail_after(30):
                        while not (await http.get(f"{b}/api/v1/asks", params={"q": title})).json()["asks"]:
                            await anyio.sleep(0.05)
                    process.send_signal(signal.SIGTERM)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(stop_a)
                    with anyio.fail_after(60):
                        result = await session.call_tool("ask_user", claude_code_input(title))
    assert not result.is_error, result
    assert result.structured_content["status"] == "pending", result.structured_content
    ask_id = result.structured_content["askId"]
    assert "await_answer" in result.content[0].text
    assert process.wait(timeout=20) == 0
    still = httpx2.get(f"{b}/api/v1/asks/{ask_id}", timeout=10).json()
    assert still["status"] == "pending", "a stopping instance cancels no ask"
    answered = httpx2.post(f"{b}/api/v1/asks/{ask_id}/answers", json={"answers": [
        {"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]},
    ]}, timeout=10)
    assert answered.status_code == 200, answered.text
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=120)) as http:
        async with streamable_http_client(f"{b}/mcp", http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                again = await session.call_tool("await_answer", {"askId": ask_id})
    assert again.structured_content["answers"][0] == {"id": "q1", "selected": ["Auth"]}
