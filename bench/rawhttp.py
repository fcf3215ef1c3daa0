"""Plain asyncio and raw HTTP/1.1 for the benchmarks, so that thousands of
connections cost the client little and the timings stay honest: a
keep-alive client, a long-poll waiter, a server's RSS and CPU from /proc,
percentiles, and the JSON lines bench/report.py reads.
"""

import asyncio
import json
import os
import time
from urllib.parse import urlsplit

ASK = {"title": "bench", "agent": "bench",
       "questions": [{"id": "q1", "question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]}
ANSWER = {"answers": [{"id": "q1", "selected": ["Yes"]}]}
WAIT = 300


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname, parts.port


def request(host: str, port: int, method: str, path: str, body=None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nhost: {host}:{port}\r\n"
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
    """One keep-alive connection to the server at `url`, one request at a time."""

    def __init__(self, url: str):
        self.host, self.port = address(url)

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def call(self, method: str, path: str, body=None):
        self.writer.write(request(self.host, self.port, method, path, body))
        buffer = b""
        while (response := parse(buffer)) is None:
            chunk = await self.reader.read(65536)
            if not chunk:
                raise RuntimeError(f"the server closed the connection on {method} {path}")
            buffer += chunk
        return response[0], json.loads(response[1])

    def close(self):
        self.writer.close()


class Waiter(asyncio.Protocol):
    """A long-poll on one connection; `done` resolves when its reply is whole."""

    def __init__(self, host: str, port: int, ask_id: str):
        self.host, self.port, self.ask_id = host, port, ask_id
        self.buffer = b""
        self.done = asyncio.get_running_loop().create_future()
        self.at = None
        self.closing = False

    @classmethod
    async def connect(cls, url: str, ask_id: str) -> "Waiter":
        host, port = address(url)
        loop = asyncio.get_running_loop()
        _, waiter = await loop.create_connection(lambda: cls(host, port, ask_id), host, port)
        return waiter

    def connection_made(self, transport):
        self.transport = transport
        transport.write(request(self.host, self.port, "GET", f"/api/v1/asks/{self.ask_id}?wait={WAIT}"))

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


async def answered(waiter: Waiter):
    """The waiter's reply, which must say the ask was answered."""
    status, reply = await asyncio.wait_for(waiter.done, 10)
    if status != 200 or json.loads(reply)["status"] != "answered":
        raise RuntimeError(f"a waiter got {status} {reply[:200]!r}")


async def create(url: str, n: int, budget: float, workers: int = 64) -> list[str]:
    """Creates up to n asks at `url`, `workers` at a time, for at most `budget` seconds."""
    ids: list[str] = []
    claimed = 0
    deadline = time.perf_counter() + budget

    async def worker():
        nonlocal claimed
        client = await Client(url).open()
        while claimed < n and time.perf_counter() < deadline:
            claimed += 1
            status, body = await client.call("POST", "/api/v1/asks", ASK)
            if status != 201:
                raise RuntimeError(f"POST /api/v1/asks: {status} {body}")
            ids.append(body["id"])
        client.close()

    await asyncio.gather(*(worker() for _ in range(workers)))
    return ids


def proc_status(pid: int) -> dict:
    with open(f"/proc/{pid}/status") as status:
        return {k: v.strip() for k, _, v in (line.partition(":") for line in status)}


def rss_mib(pid: int) -> float:
    return int(proc_status(pid)["VmRSS"].split()[0]) / 1024


def cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def settle(pids: list[int], limit: float = 30.0) -> float:
    """Waits until the servers have used (almost) no CPU for 0.6 s; seconds waited."""
    started = time.perf_counter()
    quiet, last = 0, sum(map(cpu_ticks, pids))
    while quiet < 3 and time.perf_counter() - started < limit:
        await asyncio.sleep(0.2)
        now = sum(map(cpu_ticks, pids))
        quiet = quiet + 1 if now - last <= len(pids) else 0
        last = now
    return time.perf_counter() - started


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def emit(record: dict):
    if path := os.environ.get("JSON_OUT"):
        with open(path, "a") as out:
            out.write(json.dumps(record) + "\n")
