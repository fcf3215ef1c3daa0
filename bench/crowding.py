"""Slow clients against one server (ASKDESK_URL, process SERVER_PID): another
client's requests with and without 1,000 half-open sockets from one other
address. Plain asyncio and raw HTTP/1.1 (rawhttp.py).

    crowding.py N   measures a fresh connection's GET /api/v1/asks/{id}
                    (connect, request, whole reply) from 127.0.0.1, ROUNDS
                    times one after another; opens N sockets from
                    127.0.0.2 that send half a request head and never
                    finish it; measures again while they hang; counts how
                    many of them the server kept open at once, and how many
                    it had closed by HEADER_TIMEOUT + 5 seconds

With JSON_OUT set, it also appends its figures as one line of JSON. Run by
bench/crowding.sh.
"""

import asyncio
import os
import sys
import time

from rawhttp import ASK, Client, address, emit, parse, pct, request, rss_mib

URL = os.environ["ASKDESK_URL"]
PID = int(os.environ["SERVER_PID"])
ROUNDS = int(os.environ.get("ROUNDS", "300"))
HEADER_TIMEOUT = float(os.environ["HEADER_TIMEOUT"])
HOST, PORT = address(URL)


async def one_request(path: str) -> float:
    """A fresh connection's request, from 127.0.0.1: ms to the whole reply."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(HOST, PORT, local_addr=("127.0.0.1", 0))
    writer.write(request(HOST, PORT, "GET", path))
    buffer = b""
    while (response := parse(buffer)) is None:
        chunk = await asyncio.wait_for(reader.read(65536), 10)
        if not chunk:
            raise RuntimeError("the server closed a well-behaved client's connection")
        buffer += chunk
    writer.close()
    if response[0] != 200:
        raise RuntimeError(f"GET {path}: {response[0]}")
    return (time.perf_counter() - started) * 1000


async def latencies(path: str) -> list[float]:
    return [await one_request(path) for _ in range(ROUNDS)]


class HalfOpen(asyncio.Protocol):
    """A socket that sends half a request head and then nothing."""

    def __init__(self):
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport
        transport.write(f"GET /api/v1/asks HTTP/1.1\r\nhost: {HOST}:{PORT}\r\nx-slow: ".encode())

    def data_received(self, data):
        pass

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(time.perf_counter())


async def open_half(n: int) -> list[HalfOpen]:
    loop = asyncio.get_running_loop()
    sockets = []
    for _ in range(n):
        _, sock = await loop.create_connection(HalfOpen, HOST, PORT, local_addr=("127.0.0.2", 0))
        sockets.append(sock)
    return sockets


async def all_placed(limit: float = 10.0):
    """Waits until the server has dealt with every socket opened so far: one
    more from the same address, over its limit, is closed at once, and the
    server accepts connections in the order they came."""
    [probe] = await open_half(1)
    try:
        await asyncio.wait_for(probe.closed, limit)
    except TimeoutError:
        raise RuntimeError(f"a socket over the address's limit was not closed within {limit:.0f} s")


async def main(n: int):
    client = await Client(URL).open()
    status, created = await client.call("POST", "/api/v1/asks", ASK)
    client.close()
    if status != 201:
        raise RuntimeError(f"POST /api/v1/asks: {status} {created}")
    path = f"/api/v1/asks/{created['id']}"
    await latencies(path)  # warm up
    before = await latencies(path)
    rss_before = rss_mib(PID)
    opened_at = time.perf_counter()
    sockets = await open_half(n)
    await all_placed()
    kept = sum(not s.closed.done() for s in sockets)
    during = await latencies(path)
    rss_during = rss_mib(PID)
    left = HEADER_TIMEOUT + 5 - (time.perf_counter() - opened_at)
    pending = [s.closed for s in sockets if not s.closed.done()]
    if pending:
        await asyncio.wait(pending, timeout=max(left, 0))
    open_after = sum(not s.closed.done() for s in sockets)
    for s in sockets:
        s.transport.close()
    record = {
        "n": n,
        "rounds": ROUNDS,
        "before_p50_ms": pct(before, 0.5),
        "before_p99_ms": pct(before, 0.99),
        "during_p50_ms": pct(during, 0.5),
        "during_p99_ms": pct(during, 0.99),
        "kept": kept,
        "open_after": open_after,
        "header_timeout_s": HEADER_TIMEOUT,
        "rss_before_mib": rss_before,
        "rss_during_mib": rss_during,
    }
    print(f"{n} half-open sockets from 127.0.0.2: the server kept {kept} open, "
          f"{open_after} were still open {HEADER_TIMEOUT + 5:.0f} s after they opened; "
          f"another client's request p50/p99 {record['before_p50_ms']:.2f}/{record['before_p99_ms']:.2f} ms "
          f"before, {record['during_p50_ms']:.2f}/{record['during_p99_ms']:.2f} ms during; "
          f"RSS {rss_before:.1f} → {rss_during:.1f} MiB")
    emit({"kind": "crowding", **record})


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
