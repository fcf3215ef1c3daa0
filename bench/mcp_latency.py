"""Latency from the human's `POST …/answers` returning to the MCP client
receiving the ask_user result, over streamable HTTP and stdio, 200 asks each.

    bench/mcp_latency.sh
"""

import asyncio
import os
import statistics
import sys
import time

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

URL = os.environ["ASKDESK_URL"]
BINARY = os.environ["ASKDESK_BIN"]
ROUNDS = int(os.environ.get("ROUNDS", "200"))

ARGS = {"questions": [{"question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]}


async def one(session: ClientSession, http: httpx2.AsyncClient, n: int) -> float:
    title = f"bench {n}"
    call = asyncio.create_task(session.call_tool("ask_user", {**ARGS, "title": title}))
    while True:
        asks = (await http.get(f"{URL}/api/v1/asks", params={"status": "pending"})).json()["asks"]
        match = [a for a in asks if a["title"] == title]
        if match:
            break
        await asyncio.sleep(0.001)
    response = await http.post(f"{URL}/api/v1/asks/{match[0]['id']}/answers",
                               json={"answers": [{"id": "q1", "selected": ["Yes"]}]})
    answered = time.perf_counter()
    assert response.status_code == 200, response.text
    result = await call
    received = time.perf_counter()
    assert result.structured_content["status"] == "answered"
    return (received - answered) * 1000


async def run(kind: str) -> None:
    if kind == "http":
        transport = streamable_http_client(f"{URL}/mcp")
    else:
        transport = stdio_client(StdioServerParameters(command=BINARY, args=["mcp"], env={"ASKDESK_URL": URL}))
    async with transport as streams, ClientSession(streams[0], streams[1]) as session:
        await session.initialize()
        async with httpx2.AsyncClient() as http:
            for n in range(5):
                await one(session, http, -1 - n)  # warm-up
            times = sorted([await one(session, http, n) for n in range(ROUNDS)])
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"{kind:5} over {len(times)} asks (ms): p50 {p(0.5):.2f}, p90 {p(0.9):.2f}, "
          f"p99 {p(0.99):.2f}, max {times[-1]:.2f}, mean {statistics.mean(times):.2f}")


for kind in sys.argv[1:] or ["http", "stdio"]:
    asyncio.run(run(kind))
