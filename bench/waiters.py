"""Many agents waiting at once, and many asks stored, against one server
(ASKDESK_URL, process SERVER_PID). Plain asyncio and raw HTTP/1.1, so that
10,000 connections cost the client little and the timings stay honest.

    waiters.py wait N   creates N pending asks, opens one long-poll per ask
                        (GET /api/v1/asks/{id}?wait=300), reads the server's
                        RSS once all wait, then answers the asks one by one
                        (stops at BUDGET seconds, default 120): answer POST
                        returning → its waiter has the reply, p50/p99
    waiters.py store N  creates N asks (64 at a time; stops at BUDGET
                        seconds, default 120), then reads the RSS at idle
    waiters.py idle     reads the RSS at idle

With JSON_OUT set, each run also appends its figures to that file as one
line of JSON. Run by bench/waiters.sh.
"""

import asyncio
import json
import os
import sys
import time
from urllib.parse import urlsplit

URL = urlsplit(os.environ["ASKDESK_URL"])
HOST, PORT = URL.hostname, URL.port
PID = int(os.environ["SERVER_PID"])
BUDGET = float(os.environ.get("BUDGET", "120"))
WAIT = 300

ASK = {"title": "bench", "agent": "bench",
       "questions": [{"id": "q1", "question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]}
ANSWER = {"answers": [{"id": "q1", "selected": ["Yes"]}]}


def request(method: str, path: str, body=None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nhost: {HOST}:{PORT}\r\n"
    if body is not None:
        head += f"content-type: application/json\r\ncontent-length: {len(data)}\r\n"
    return (head + "\r\n").encode() + data


def parse(buffer: bytes):
    """(status, body) once `buffer` holds a whole response, else None."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = buffer[:end].decode("latin-1").split("\r\n")
    length = None
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    if length is None:
        raise RuntimeError(f"a response without content-length: {lines[0]}")
    if len(buffer) < end + 4 + length:
        return None
    return int(lines[0].split()[1]), buffer[end + 4:end + 4 + length]


class Client:
    """One keep-alive connection, one request at a time."""

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, PORT)
        return self

    async def call(self, method: str, path: str, body=None):
        self.writer.write(request(method, path, body))
        buffer = b""
        while (response := parse(buffer)) is None:
            chunk = await self.reader.read(65536)
            if not chunk:
                raise RuntimeError(f"the server closed the connection on {method} {path}")
            buffer += chunk
        return response[0], json.loads(response[1])


class Waiter(asyncio.Protocol):
    """A long-poll on one connection; `done` resolves when its reply is whole."""

    def __init__(self, ask_id: str):
        self.ask_id = ask_id
        self.buffer = b""
        self.done = asyncio.get_running_loop().create_future()
        self.at = None
        self.closing = False

    def connection_made(self, transport):
        self.transport = transport
        transport.write(request("GET", f"/api/v1/asks/{self.ask_id}?wait={WAIT}"))

    def data_received(self, data):
        self.buffer += data
        if not self.done.done() and (response := parse(self.buffer)) is not None:
            self.at = time.perf_counter()
            self.done.set_result(response)

    def close(self):
        self.closing = True
        self.transport.close()

    def connection_lost(self, exc):
        if not self.done.done() and not self.closing:
            self.done.set_exception(RuntimeError(f"a waiter lost its connection: {exc}"))


def proc_status() -> dict:
    with open(f"/proc/{PID}/status") as status:
        return {k: v.strip() for k, _, v in (line.partition(":") for line in status)}


def rss_mib() -> float:
    return int(proc_status()["VmRSS"].split()[0]) / 1024


def cpu_ticks() -> int:
    with open(f"/proc/{PID}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def settle(limit: float = 30.0) -> float:
    """Waits until the server has used (almost) no CPU for 0.6 s; seconds waited."""
    started = time.perf_counter()
    quiet, last = 0, cpu_ticks()
    while quiet < 3 and time.perf_counter() - started < limit:
        await asyncio.sleep(0.2)
        now = cpu_ticks()
        quiet = quiet + 1 if now - last <= 1 else 0
        last = now
    return time.perf_counter() - started


async def create(n: int, budget: float) -> list[str]:
    """Creates up to n asks, 64 at a time, for at most `budget` seconds."""
    ids: list[str] = []
    claimed = 0
    deadline = time.perf_counter() + budget

    async def worker():
        nonlocal claimed
        client = await Client().open()
        while claimed < n and time.perf_counter() < deadline:
            claimed += 1
            status, body = await client.call("POST", "/api/v1/asks", ASK)
            if status != 201:
                raise RuntimeError(f"POST /api/v1/asks: {status} {body}")
            ids.append(body["id"])
        client.writer.close()

    await asyncio.gather(*(worker() for _ in range(64)))
    return ids


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def emit(record: dict):
    if path := os.environ.get("JSON_OUT"):
        with open(path, "a") as out:
            out.write(json.dumps(record) + "\n")


async def wait(n: int):
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    ids = await create(n, BUDGET)
    if len(ids) < n:
        raise RuntimeError(f"created only {len(ids)} of {n} asks in {BUDGET:.0f} s")
    await settle()
    stored = rss_mib()

    waiters: dict[str, Waiter] = {}
    gate = asyncio.Semaphore(256)  # connections being opened at once

    async def connect(ask_id: str):
        async with gate:
            _, waiter = await loop.create_connection(lambda: Waiter(ask_id), HOST, PORT)
            waiters[ask_id] = waiter

    await asyncio.gather(*(connect(i) for i in ids))
    settled = await settle()
    early = sum(w.done.done() for w in waiters.values())
    if early:
        raise RuntimeError(f"{early} waiters were answered before any answer")
    waiting = rss_mib()
    threads = proc_status()["Threads"]
    print(f"{n} asks waited on: server RSS {stored:.1f} MiB with the asks stored, "
          f"{waiting:.1f} MiB with {n} long-polls open ({threads} threads; settled in {settled:.1f} s)")

    # One answer at a time: POST, then wait for its waiter, so that each
    # figure is one delivery and not a queue.
    client = await Client().open()
    latencies, first = [], 0
    deadline = time.perf_counter() + BUDGET
    for ask_id in ids:
        if time.perf_counter() > deadline:
            break
        status, body = await client.call("POST", f"/api/v1/asks/{ask_id}/answers", ANSWER)
        returned = time.perf_counter()
        if status != 200:
            raise RuntimeError(f"POST answers: {status} {body}")
        waiter = waiters[ask_id]
        status, reply = await asyncio.wait_for(waiter.done, 10)
        if status != 200 or json.loads(reply)["status"] != "answered":
            raise RuntimeError(f"a waiter got {status} {reply[:200]!r}")
        # The reply can reach the waiter before the POST's own response.
        first += waiter.at < returned
        latencies.append(max(0.0, waiter.at - returned) * 1000)
    client.writer.close()
    for w in waiters.values():
        w.close()
    p50, p99 = pct(latencies, 0.5), pct(latencies, 0.99)
    print(f"{n} waiters, {len(latencies)} answered one at a time, answer POST returned → waiter has "
          f"the reply (ms): p50 {p50:.2f}, p90 {pct(latencies, 0.9):.2f}, p99 {p99:.2f}, "
          f"max {max(latencies):.2f} ({first} replies came before the POST's own; counted as 0)")
    print(f"  ({time.perf_counter() - started:.0f} s)")
    emit({"kind": "wait", "n": n, "answered": len(latencies), "rss_stored_mib": stored,
          "rss_waiting_mib": waiting, "p50_ms": p50, "p99_ms": p99})


async def store(n: int):
    started = time.perf_counter()
    ids = await create(n, BUDGET)
    took = time.perf_counter() - started
    await settle()
    rss = rss_mib()
    print(f"stored {len(ids)} asks in {took:.0f} s ({len(ids) / took:.0f}/s); "
          f"server RSS at idle: {rss:.1f} MiB, peak {int(proc_status()['VmHWM'].split()[0]) / 1024:.1f} MiB")
    emit({"kind": "store", "n": len(ids), "wanted": n, "rss_mib": rss})


async def idle():
    await settle()
    rss = rss_mib()
    print(f"server RSS at idle: {rss:.1f} MiB")
    emit({"kind": "idle", "rss_mib": rss})


mode = sys.argv[1]
if mode == "wait":
    asyncio.run(wait(int(sys.argv[2])))
elif mode == "store":
    asyncio.run(store(int(sys.argv[2])))
elif mode == "idle":
    asyncio.run(idle())
else:
    sys.exit(f"unknown mode {mode!r}; use wait N, store N or idle")
