"""Write rates of one store, and several instances on one database acting as
one desk. The servers are ASKDESK_URLS (space-separated), their processes
SERVER_PIDS, in the same order. Plain asyncio and raw HTTP/1.1 (rawhttp.py).

    multi.py rates LABEL N  on the first server: creates N asks (64 clients
                            at a time, for at most BUDGET s), then answers
                            them (64 at a time): creates/s and answers/s
    multi.py wake N         an agent long-polls on the first server while
                            the ask is answered on the second, N times one
                            after another: answer POST sent → the waiter on
                            the other instance has the reply, p50/p99
    multi.py spread N       N asks, each waited on by one long-poll on
                            server i % k and answered, one at a time, on
                            server (i + 1) % k: every server's RSS while all
                            wait, and answer sent → waiter p50/p99

With JSON_OUT set, each run also appends its figures to that file as one
line of JSON. Run by bench/multi.sh.
"""

import asyncio
import os
import sys
import time

from rawhttp import ANSWER, ASK, Client, Waiter, answered, create, emit, pct, rss_mib, settle

URLS = os.environ["ASKDESK_URLS"].split()
PIDS = [int(pid) for pid in os.environ["SERVER_PIDS"].split()]
BUDGET = float(os.environ.get("BUDGET", "60"))


async def rates(label: str, n: int):
    started = time.perf_counter()
    ids = await create(URLS[0], n, BUDGET)
    created = time.perf_counter() - started
    pending = list(ids)

    async def worker():
        client = await Client(URLS[0]).open()
        while pending:
            ask_id = pending.pop()
            status, body = await client.call("POST", f"/api/v1/asks/{ask_id}/answers", ANSWER)
            if status != 200:
                raise RuntimeError(f"POST answers: {status} {body}")
        client.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(64)))
    answering = time.perf_counter() - started
    print(f"{label}: {len(ids)} asks created in {created:.1f} s ({len(ids) / created:.0f}/s), "
          f"answered in {answering:.1f} s ({len(ids) / answering:.0f}/s), 64 clients at a time")
    emit({"kind": "rates", "store": label, "n": len(ids),
          "creates_per_s": len(ids) / created, "answers_per_s": len(ids) / answering})


async def deliver(pairs: list[tuple[str, Waiter, str]]) -> tuple[list[float], list[float]]:
    """Answers each (ask, its waiter, where to answer) in turn, waiting for the
    waiter before the next: milliseconds from sending the answer POST to the
    waiter's reply (the whole trip: one instance commits, the other hears
    of it and replies), and the POST's own round trips for comparison."""
    clients = {url: await Client(url).open() for url in {where for _, _, where in pairs}}
    latencies, posts = [], []
    deadline = time.perf_counter() + BUDGET
    for ask_id, waiter, where in pairs:
        if time.perf_counter() > deadline:
            break
        sent = time.perf_counter()
        status, body = await clients[where].call("POST", f"/api/v1/asks/{ask_id}/answers", ANSWER)
        returned = time.perf_counter()
        if status != 200:
            raise RuntimeError(f"POST answers: {status} {body}")
        await answered(waiter)
        latencies.append((waiter.at - sent) * 1000)
        posts.append((returned - sent) * 1000)
    for client in clients.values():
        client.close()
    return latencies, posts


def summary(latencies: list[float], posts: list[float]) -> str:
    return (f"p50 {pct(latencies, 0.5):.2f}, p90 {pct(latencies, 0.9):.2f}, p99 {pct(latencies, 0.99):.2f}, "
            f"max {max(latencies):.2f} (the answer POST's own round trip: p50 {pct(posts, 0.5):.2f}, "
            f"p99 {pct(posts, 0.99):.2f})")


async def wake(n: int):
    asking, answering = URLS[0], URLS[1]
    latencies, posts = [], []
    deadline = time.perf_counter() + BUDGET
    client = await Client(asking).open()
    for _ in range(n):
        if time.perf_counter() > deadline:
            break
        status, body = await client.call("POST", "/api/v1/asks", ASK)
        if status != 201:
            raise RuntimeError(f"POST /api/v1/asks: {status} {body}")
        waiter = await Waiter.connect(asking, body["id"])
        # Time for the server to read the ask and start waiting.
        await asyncio.sleep(0.02)
        got, post = await deliver([(body["id"], waiter, answering)])
        latencies += got
        posts += post
        waiter.close()
    client.close()
    print(f"cross-instance wake-up, {len(latencies)} asks one at a time (waiting on one instance, "
          f"answered on another), answer POST sent → waiter has the reply (ms): {summary(latencies, posts)}")
    emit({"kind": "wake", "n": len(latencies), "p50_ms": pct(latencies, 0.5), "p99_ms": pct(latencies, 0.99)})


async def spread(n: int):
    k = len(URLS)
    ids = await create(URLS[0], n, BUDGET)
    if len(ids) < n:
        raise RuntimeError(f"created only {len(ids)} of {n} asks in {BUDGET:.0f} s")
    await settle(PIDS)
    before = [rss_mib(pid) for pid in PIDS]
    gate = asyncio.Semaphore(256)  # connections being opened at once
    waiters: dict[str, Waiter] = {}

    async def connect(i: int, ask_id: str):
        async with gate:
            waiters[ask_id] = await Waiter.connect(URLS[i % k], ask_id)

    await asyncio.gather(*(connect(i, ask_id) for i, ask_id in enumerate(ids)))
    await settle(PIDS)
    early = sum(w.done.done() for w in waiters.values())
    if early:
        raise RuntimeError(f"{early} waiters were answered before any answer")
    waiting = [rss_mib(pid) for pid in PIDS]
    print(f"{n} long-polls over {k} instances: RSS "
          + ", ".join(f"{w:.1f} MiB (from {b:.1f})" for w, b in zip(waiting, before)))
    latencies, posts = await deliver(
        [(ask_id, waiters[ask_id], URLS[(i + 1) % k]) for i, ask_id in enumerate(ids)])
    for w in waiters.values():
        w.close()
    print(f"  {len(latencies)} answered one at a time, each on the instance after its waiter's, "
          f"answer POST sent → waiter has the reply (ms): {summary(latencies, posts)}")
    emit({"kind": "spread", "n": n, "instances": k, "answered": len(latencies),
          "rss_mib": waiting, "p50_ms": pct(latencies, 0.5), "p99_ms": pct(latencies, 0.99)})


mode = sys.argv[1]
if mode == "rates":
    asyncio.run(rates(sys.argv[2], int(sys.argv[3])))
elif mode == "wake":
    asyncio.run(wake(int(sys.argv[2])))
elif mode == "spread":
    asyncio.run(spread(int(sys.argv[2])))
else:
    sys.exit(f"unknown mode {mode!r}; use rates LABEL N, wake N or spread N")
