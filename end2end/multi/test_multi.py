"""Three real askdesk processes on one PostgreSQL database are one desk,
and stay one while they are SIGKILLed: what one instance does, the others'
waiters and streams hear; an agent whose instance dies gets its answer from
another; acknowledged answers are never lost; streams resume on any
instance, after restarts, with exactly the events missed."""

import concurrent.futures
import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import httpx2
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from serving import wait_for_url  # noqa: E402  (end2end/serving.py)

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("ASKDESK_BIN", ROOT / "target" / "debug" / "askdesk"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Instance:
    """One askdesk process on a fixed port, so it comes back where it was."""

    def __init__(self, name: str, database: str, logs: str):
        self.name, self.database, self.logs = name, database, logs
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self):
        self.process = subprocess.Popen(
            [str(BINARY), "--addr", f"127.0.0.1:{self.port}"],
            env={**os.environ, "ASKDESK_DATABASE": self.database, "RUST_LOG": "warn"},
            stdout=subprocess.PIPE,
            stderr=open(f"{self.logs}/{self.name}.log", "a"),
            text=True,
        )
        wait_for_url(self.process, name=self.name)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@contextlib.contextmanager
def schema_of_its_own(prefix: str):
    """The test PostgreSQL's URL with a new schema as its search path,
    dropped afterwards."""
    base = os.environ.get("ASKDESK_TEST_POSTGRES")
    assert base, "ASKDESK_TEST_POSTGRES must name a PostgreSQL to test on (scripts/dev.sh sets it)"
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", base, "-qc", f"CREATE SCHEMA {schema}"], check=True)
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-c%20search_path%3D{schema}"
    finally:
        subprocess.run(["psql", base, "-qc", f"DROP SCHEMA {schema} CASCADE"], check=False)


@pytest.fixture
def desk():
    with schema_of_its_own("multi") as url, tempfile.TemporaryDirectory() as logs:
        instances = [Instance(name, url, logs) for name in ("one", "two", "three")]
        try:
            for instance in instances:
                instance.start()
            yield instances
        finally:
            for instance in instances:
                instance.stop()


def new_ask(title: str) -> dict:
    return {
        "title": title,
        "agent": "multi-test",
        "questions": [
            {"id": "q", "question": "Which parts?", "multiSelect": True,
             "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}]},
        ],
    }


_local = threading.local()


def http() -> httpx2.Client:
    """This thread's client: one per thread keeps connections alive and
    spares each call setting up a client of its own."""
    if not hasattr(_local, "client"):
        _local.client = httpx2.Client(timeout=10)
    return _local.client


def create(url: str, title: str) -> str:
    response = http().post(f"{url}/api/v1/asks", json=new_ask(title))
    assert response.status_code == 201, response.text
    return response.json()["id"]


class Stream:
    """An event stream read in a thread: (id, event, data) tuples in a queue."""

    def __init__(self, url: str, last_event_id: str | None = None):
        self.events: queue.Queue = queue.Queue()
        self.closed = threading.Event()
        headers = {"last-event-id": last_event_id} if last_event_id else {}
        self.client = httpx2.Client(timeout=httpx2.Timeout(10, read=None))
        self.response = self.client.send(
            self.client.build_request("GET", f"{url}/api/v1/events", headers=headers), stream=True
        )
        assert self.response.status_code == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event = {}
        try:
            for line in self.response.iter_lines():
                if line == "":
                    if "event" in event:
                        self.events.put((event.get("id"), event["event"], json.loads(event.get("data", "null"))))
                    event = {}
                elif not line.startswith(":") and ":" in line:
                    key, value = line.split(":", 1)
                    event[key] = value.strip()
        except httpx2.HTTPError:
            pass

    def next(self, within: float = 20.0):
        return self.events.get(timeout=within)

    def quiet_for(self, seconds: float) -> bool:
        try:
            self.events.get(timeout=seconds)
            return False
        except queue.Empty:
            return True

    def close(self):
        self.response.close()
        self.client.close()


def until(stream: Stream, predicate):
    while True:
        event = stream.next()
        if predicate(event):
            return event


def test_a_wait_on_one_hears_a_page_answer_on_two_and_a_stream_on_three_sees_both(desk):
    one, two, three = desk
    stream = Stream(three.url)
    ask = create(one.url, "across instances")
    with concurrent.futures.ThreadPoolExecutor() as pool:
        waiting = pool.submit(httpx2.get, f"{one.url}/api/v1/asks/{ask}?wait=60", timeout=90)
        # A person answers through the page's form on two, as a browser posts it.
        posted = httpx2.post(
            f"{two.url}/asks/{ask}",
            content=urllib.parse.urlencode(
                [("answer.q", "Auth"), ("answer.q", "Metrics"), ("other.q", "and tracing")]
            ),
            headers={"origin": two.url, "content-type": "application/x-www-form-urlencoded"},
            timeout=10,
        )
        assert posted.status_code == 303, posted.text
        answered = waiting.result(timeout=90)
    assert answered.status_code == 200
    assert answered.json()["status"] == "answered"
    assert answered.json()["answers"] == [
        {"id": "q", "selected": ["Auth", "Metrics"], "custom": "and tracing"}
    ]
    created = until(stream, lambda e: e[1] == "ask" and e[2]["ask"]["id"] == ask)
    finished = until(stream, lambda e: e[1] == "ask" and e[2]["ask"]["id"] == ask)
    assert (created[2]["ask"]["status"], finished[2]["ask"]["status"]) == ("pending", "answered")
    assert int(finished[0]) > int(created[0])
    stream.close()


def test_an_agent_whose_instance_is_killed_mid_wait_gets_the_answer_on_another(desk):
    one, two, three = desk
    ask = create(one.url, "killed mid-wait")
    with concurrent.futures.ThreadPoolExecutor() as pool:
        waiting = pool.submit(httpx2.get, f"{one.url}/api/v1/asks/{ask}?wait=60", timeout=90)
        # The wait is under way once one has read the ask; then one dies.
        time.sleep(0.3)
        one.kill()
        with pytest.raises(httpx2.HTTPError):
            waiting.result(timeout=30).raise_for_status()
        # The agent tries again on two, and a person answers on three.
        retried = pool.submit(httpx2.get, f"{two.url}/api/v1/asks/{ask}?wait=60", timeout=90)
        answer = {"answers": [{"id": "q", "selected": ["Logging"]}]}
        done = httpx2.post(f"{three.url}/api/v1/asks/{ask}/answers", json=answer, timeout=10)
        assert done.status_code == 200, done.text
        got = retried.result(timeout=90)
    assert got.status_code == 200
    assert got.json()["answers"] == [{"id": "q", "selected": ["Logging"]}]


def test_answers_spread_over_three_instances_survive_one_killed_again_and_again(desk):
    count = 1000
    urls = [instance.url for instance in desk]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        asks = list(pool.map(lambda n: create(urls[n % 3], f"ask {n}"), range(count)))

    def sent(n: int) -> dict:
        return {"id": "q", "selected": [["Auth", "Logging", "Metrics"][n % 3]], "custom": f"answer {n}"}

    acknowledged: dict[str, list] = {}
    already: set[str] = set()
    lock = threading.Lock()

    def submit(n: int):
        ask = asks[n]
        for attempt in range(200):
            url = urls[(n + attempt) % 3]
            try:
                response = http().post(f"{url}/api/v1/asks/{ask}/answers", json={"answers": [sent(n)]})
            except httpx2.HTTPError:
                time.sleep(0.05)
                continue
            if response.status_code == 200:
                with lock:
                    acknowledged[ask] = response.json()["answers"]
                return
            if response.status_code == 409:
                # An earlier try was stored, but its reply died with its instance.
                with lock:
                    already.add(ask)
                return
            assert response.status_code == 503, f"{response.status_code} {response.text}"
            time.sleep(0.05)
        raise AssertionError(f"ask {n} was never answered")

    stop = threading.Event()
    kills = []

    def killer():
        victim = 0
        while not stop.wait(0.3):
            desk[victim].kill()
            kills.append(desk[victim].name)
            desk[victim].start()
            victim = (victim + 1) % 3

    chaos = threading.Thread(target=killer)
    chaos.start()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(submit, range(count)))
    finally:
        stop.set()
        chaos.join()
    assert len(kills) >= 5, f"the instances were killed only {len(kills)} times"
    assert len(acknowledged) + len(already) == count

    # Every ask ended once, answered exactly as sent (acknowledged or not).
    for n, ask in enumerate(asks):
        stored = http().get(f"{urls[n % 3]}/api/v1/asks/{ask}").json()
        assert stored["status"] == "answered", stored
        assert stored["answers"] == [sent(n)], stored
        if ask in acknowledged:
            assert stored["answers"] == acknowledged[ask]
    # The events say so too: each ask created once and answered once, in
    # one numbering without gaps.
    stream = Stream(urls[0], last_event_id="0")
    events = [stream.next() for _ in range(2 * count)]
    assert stream.quiet_for(0.5)
    stream.close()
    assert [int(e[0]) for e in events] == list(range(1, 2 * count + 1))
    seen: dict[str, list[str]] = {}
    for _, _, data in events:
        seen.setdefault(data["ask"]["id"], []).append(data["ask"]["status"])
    assert seen == {ask: ["pending", "answered"] for ask in asks}


def test_a_stream_resumes_on_another_instance_after_restarts_with_exactly_what_it_missed(desk):
    one, two, three = desk
    stream = Stream(one.url)
    create(one.url, "seen")
    seen_id, _, _ = stream.next()
    stream.close()
    one.kill()
    missed = [create(three.url, "missed 1"), create(three.url, "missed 2")]
    two.kill()
    two.start()
    resumed = Stream(two.url, last_event_id=seen_id)
    got = [resumed.next(), resumed.next()]
    assert [e[2]["ask"]["id"] for e in got] == missed
    assert [int(e[0]) for e in got] == [int(seen_id) + 1, int(seen_id) + 2]
    assert resumed.quiet_for(0.5), "nothing twice"
    late = create(three.url, "live")
    assert resumed.next()[2]["ask"]["id"] == late
    resumed.close()
