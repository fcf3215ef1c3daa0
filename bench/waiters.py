"""Many agents waiting at once, and many asks stored, against one server
(ASKDESK_URL, process SERVER_PID). Plain asyncio and raw HTTP/1.1 (rawhttp.py).

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
import os
import sys
import time

from rawhttp import ANSWER, Client, Waiter, answered, create, emit, pct, proc_status, settle
from rawhttp import rss_mib as rss_of

URL = os.environ["ASKDESK_URL"]
PID = int(os.environ["SERVER_PID"])
BUDGET = float(os.environ.get("BUDGET", "120"))


def rss_mib() -> float:
    return rss_of(PID)


async def wait(n: int):
    started = time.perf_counter()
    ids = await create(URL, n, BUDGET)
    if len(ids) < n:
        raise RuntimeError(f"created only {len(ids)} of {n} asks in {BUDGET:.0f} s")
    await settle([PID])
    stored = rss_mib()

    waiters: dict[str, Waiter] = {}
    gate = asyncio.Semaphore(256)  # connections being opened at once

    async def connect(ask_id: str):
        async with gate:
            waiters[ask_id] = await Waiter.connect(URL, ask_id)

    await asyncio.gather(*(connect(i) for i in ids))
    settled = await settle([PID])
    early = sum(w.done.done() for w in waiters.values())
    if early:
        raise RuntimeError(f"{early} waiters were answered before any answer")
    waiting = rss_mib()
    threads = proc_status(PID)["Threads"]
    print(f"{n} asks waited on: server RSS {stored:.1f} MiB with the asks stored, "
          f"{waiting:.1f} MiB with {n} long-polls open ({threads} threads; settled in {settled:.1f} s)")

    # One answer at a time: POST, then wait for its waiter, so that each
    # figure is one delivery and not a queue.
    client = await Client(URL).open()
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
        await answered(waiter)
        # The reply can reach the waiter before the POST's own response.
        first += waiter.at < returned
        latencies.append(max(0.0, waiter.at - returned) * 1000)
    client.close()
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
    ids = await create(URL, n, BUDGET)
    took = time.perf_counter() - started
    await settle([PID])
    rss = rss_mib()
    print(f"stored {len(ids)} asks in {took:.0f} s ({len(ids) / took:.0f}/s); "
          f"server RSS at idle: {rss:.1f} MiB, peak {int(proc_status(PID)['VmHWM'].split()[0]) / 1024:.1f} MiB")
    emit({"kind": "store", "n": len(ids), "wanted": n, "rss_mib": rss})


async def idle():
    await settle([PID])
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
