"""Webhook notifications from one server (ASKDESK_URL, process SERVER_PID),
received by an asyncio HTTP receiver on RECEIVER_PORT (the server was
started with --notify webhook+http://127.0.0.1:RECEIVER_PORT/hook).
Plain asyncio and raw HTTP/1.1 (rawhttp.py).

    notify.py latency N  creates N asks one after another: the create POST
                         sent → its ask.created webhook received, p50/p99
    notify.py flaky N    creates N asks at once while the receiver fails
                         the first attempt of every delivery (half of all
                         requests): seconds until every ask's notification
                         is taken, requests made, and the server's RSS
                         before and after (for at most BUDGET s)

With JSON_OUT set, each run also appends its figures to that file as one
line of JSON. Run by bench/notify.sh.
"""

import asyncio
import json
import os
import sys
import time

from rawhttp import ASK, Client, create, emit, pct, rss_mib, settle

URL = os.environ["ASKDESK_URL"]
PID = int(os.environ["SERVER_PID"])
PORT = int(os.environ["RECEIVER_PORT"])
BUDGET = float(os.environ.get("BUDGET", "60"))


class Receiver:
    """Takes webhook POSTs: the ask's id and when its notification came."""

    def __init__(self, fail_first: bool):
        self.fail_first = fail_first
        self.seen: set[str] = set()
        self.requests = 0
        self.taken: dict[str, float] = {}
        self.changed = asyncio.Event()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.decode("latin-1").split("\r\n")[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                body = await reader.readexactly(length)
                at = time.perf_counter()
                self.requests += 1
                note = json.loads(body)
                fail = self.fail_first and note["id"] not in self.seen
                self.seen.add(note["id"])
                if not fail:
                    if note["event"] == "ask.created":
                        self.taken.setdefault(note["ask"]["id"], at)
                        self.changed.set()
                status = "500 Internal Server Error" if fail else "204 No Content"
                writer.write(f"HTTP/1.1 {status}\r\ncontent-length: 0\r\n\r\n".encode())
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            writer.close()

    async def until(self, predicate, deadline: float) -> bool:
        while not predicate():
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                return predicate()
        return True


async def serve(receiver: Receiver):
    return await asyncio.start_server(receiver.handle, "127.0.0.1", PORT)


async def latency(n: int):
    receiver = Receiver(fail_first=False)
    server = await serve(receiver)
    client = await Client(URL).open()
    latencies = []
    deadline = time.perf_counter() + BUDGET
    for _ in range(n):
        if time.perf_counter() > deadline:
            break
        sent = time.perf_counter()
        status, body = await client.call("POST", "/api/v1/asks", ASK)
        if status != 201:
            raise RuntimeError(f"POST /api/v1/asks: {status} {body}")
        ask_id = body["id"]
        if not await receiver.until(lambda: ask_id in receiver.taken, time.perf_counter() + 10):
            raise RuntimeError(f"no webhook for {ask_id} within 10 s")
        latencies.append((receiver.taken[ask_id] - sent) * 1000)
    client.close()
    server.close()
    p50, p99 = pct(latencies, 0.5), pct(latencies, 0.99)
    print(f"create → webhook received, {len(latencies)} asks one at a time (ms): p50 {p50:.2f}, "
          f"p90 {pct(latencies, 0.9):.2f}, p99 {p99:.2f}, max {max(latencies):.2f}")
    emit({"kind": "webhook", "n": len(latencies), "p50_ms": p50, "p99_ms": p99})


async def flaky(n: int):
    receiver = Receiver(fail_first=True)
    server = await serve(receiver)
    await settle([PID])
    before = rss_mib(PID)
    started = time.perf_counter()
    ids = await create(URL, n, BUDGET)
    done = await receiver.until(lambda: len(receiver.taken) >= len(ids), started + BUDGET)
    took = time.perf_counter() - started
    await settle([PID])
    after = rss_mib(PID)
    server.close()
    print(f"{len(ids)} asks to a receiver failing every delivery's first attempt: "
          f"{len(receiver.taken)} notifications taken in {took:.1f} s with {receiver.requests} requests; "
          f"server RSS {before:.1f} MiB before, {after:.1f} MiB after")
    emit({"kind": "flaky", "n": len(ids), "taken": len(receiver.taken), "all": done,
          "seconds": took, "requests": receiver.requests, "rss_before_mib": before, "rss_after_mib": after})


mode = sys.argv[1]
if mode == "latency":
    asyncio.run(latency(int(sys.argv[2])))
elif mode == "flaky":
    asyncio.run(flaky(int(sys.argv[2])))
else:
    sys.exit(f"unknown mode {mode!r}; use latency N or flaky N")
