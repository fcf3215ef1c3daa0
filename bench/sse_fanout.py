"""Fan-out of the event stream: with PENDING asks waiting and CLIENTS
connected to GET /api/v1/events, the time from POST /api/v1/asks (request
sent) to the event reaching every client; p50/p99 over all deliveries, and
the server's RSS.

    bench/sse_fanout.sh
"""

import asyncio
import json
import os
import statistics
import time

import httpx2

URL = os.environ["ASKDESK_URL"]
PID = int(os.environ["SERVER_PID"])
PENDING = int(os.environ.get("PENDING", "1000"))
CLIENTS = int(os.environ.get("CLIENTS", "100"))
ROUNDS = int(os.environ.get("ROUNDS", "50"))

ASK = {"title": "bench", "questions": [{"question": "Go?", "options": ["Yes", "No"]}]}
STRICT = {"title": "bench", "questions": [{"id": "q1", "question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]}


def rss_kib() -> tuple[int, int]:
    fields = {}
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def client(http: httpx2.AsyncClient, arrivals: dict, ready: asyncio.Event, n: int, connected: list):
    async with http.stream("GET", f"{URL}/api/v1/events") as response:
        connected.append(n)
        if len(connected) == CLIENTS:
            ready.set()
        event = None
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "ask":
                ask_id = json.loads(line[5:])["ask"]["id"]
                now = time.perf_counter()
                arrivals.setdefault(ask_id, []).append(now)


async def main():
    limits = httpx2.Limits(max_connections=CLIENTS + 20)
    async with httpx2.AsyncClient(timeout=None, limits=limits) as http:
        sem = asyncio.Semaphore(32)

        async def create():
            async with sem:
                r = await http.post(f"{URL}/api/v1/asks", json=STRICT)
                assert r.status_code == 201, r.text

        await asyncio.gather(*(create() for _ in range(PENDING)))
        idle_rss, _ = rss_kib()
        arrivals: dict = {}
        ready = asyncio.Event()
        connected: list = []
        tasks = [asyncio.create_task(client(http, arrivals, ready, n, connected)) for n in range(CLIENTS)]
        await ready.wait()
        await asyncio.sleep(0.5)  # let every stream settle before measuring
        latencies = []
        for _ in range(ROUNDS):
            sent = time.perf_counter()
            r = await http.post(f"{URL}/api/v1/asks", json=STRICT)
            ask_id = r.json()["id"]
            while len(arrivals.get(ask_id, [])) < CLIENTS:
                await asyncio.sleep(0.001)
            latencies += [(t - sent) * 1000 for t in arrivals[ask_id]]
            await asyncio.sleep(0.02)
        rss, peak = rss_kib()
        for t in tasks:
            t.cancel()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"{PENDING} pending asks, {CLIENTS} SSE clients, {ROUNDS} new asks "
          f"({len(latencies)} deliveries), POST sent → event at each client (ms): "
          f"p50 {p(0.5):.2f}, p90 {p(0.9):.2f}, p99 {p(0.99):.2f}, max {latencies[-1]:.2f}, "
          f"mean {statistics.mean(latencies):.2f}")
    print(f"server RSS: {idle_rss} KiB with the asks stored, {rss} KiB with the clients connected, "
          f"peak {peak} KiB")


asyncio.run(main())
