"""Many agents waiting in MCP `ask_user` at once, against one server
(ASKDESK_URL, process SERVER_PID): each agent its own streamable-HTTP
session on its own connection (initialize, initialized, then a tools/call
of ask_user that stays open until the ask ends). Plain asyncio and raw
HTTP/1.1, as waiters.py.

    mcp_waiters.py N    N agents call ask_user; the server's RSS once all
                        wait; then the asks are answered one at a time
                        through the API (stops at BUDGET seconds, default
                        60): answer POST returning → that agent has the
                        tool's result, p50/p99

With JSON_OUT set, also appends its figures to that file as one line of
JSON. Run by bench/mcp_waiters.sh.
"""

import asyncio
import json
import os
import sys
import time

from rawhttp import ANSWER, Client, address, emit, pct, proc_status, rss_mib, settle

URL = os.environ["ASKDESK_URL"]
PID = int(os.environ["SERVER_PID"])
BUDGET = float(os.environ.get("BUDGET", "60"))
PROTOCOL = "2025-06-18"
QUESTIONS = [{"question": "Go?", "options": [{"label": "Yes"}, {"label": "No"}]}]


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict, bytes]:
    """One whole HTTP/1.1 response: status, headers (lower-case), body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        body = b""
        while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
            body += await reader.readexactly(size)
            await reader.readexactly(2)
        await reader.readuntil(b"\r\n")
    else:
        body = b""
    return int(lines[0].split()[1]), headers, body


def messages(body: bytes) -> list[dict]:
    """The JSON-RPC messages of an event-stream (or plain JSON) body."""
    text = body.decode()
    if text.lstrip().startswith("{"):
        return [json.loads(text)]
    return [json.loads(line[5:]) for line in text.splitlines()
            if line.startswith("data:") and line[5:].strip()]


class Agent:
    """One MCP session on one connection, its ask_user call under way."""

    def __init__(self, n: int):
        self.title = f"mcp agent {n}"
        self.session = None
        self.result = None
        self.at = None

    async def post(self, message: dict) -> tuple[int, dict, bytes]:
        data = json.dumps(message).encode()
        head = (f"POST /mcp HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
                "content-type: application/json\r\naccept: application/json, text/event-stream\r\n"
                f"content-length: {len(data)}\r\n")
        if self.session:
            head += f"mcp-session-id: {self.session}\r\nmcp-protocol-version: {PROTOCOL}\r\n"
        self.writer.write((head + "\r\n").encode() + data)
        return await read_response(self.reader)

    async def start(self):
        """Opens the session; returns once ask_user has been sent."""
        self.host, self.port = address(URL)
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        status, headers, _ = await self.post({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "0"}}})
        if status != 200:
            raise RuntimeError(f"initialize: {status}")
        self.session = headers["mcp-session-id"]
        status, _, _ = await self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if status != 202:
            raise RuntimeError(f"initialized: {status}")
        self.call = asyncio.create_task(self.post({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "ask_user",
                       "arguments": {"title": self.title, "questions": QUESTIONS, "waitSeconds": 300}}}))
        self.call.add_done_callback(self.finished)

    def finished(self, call: asyncio.Task):
        self.at = time.perf_counter()
        if not call.cancelled() and call.exception() is None:
            status, _, body = call.result()
            replies = [m for m in messages(body) if m.get("id") == 2]
            if status == 200 and replies:
                self.result = replies[0].get("result", {}).get("structuredContent", {})

    def close(self):
        self.writer.close()


async def pending_titles(client_url: str) -> dict[str, str]:
    """title → ask id of every pending ask, from the API's JSON-lines listing."""
    host, port = address(client_url)
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/v1/asks?status=pending&format=jsonl HTTP/1.1\r\nhost: {host}:{port}\r\n"
                 "connection: close\r\n\r\n".encode())
    _, _, body = await read_response(reader)
    writer.close()
    asks = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
    return {a["title"]: a["id"] for a in asks}


async def run(n: int):
    agents = [Agent(i) for i in range(n)]
    await settle([PID])
    before = rss_mib(PID)
    gate = asyncio.Semaphore(128)  # sessions being opened at once

    async def start(agent: Agent):
        async with gate:
            await agent.start()

    started = time.perf_counter()
    await asyncio.gather(*(start(a) for a in agents))
    # Every call has reached the desk once its ask is listed.
    while len(ids := await pending_titles(URL)) < n:
        if time.perf_counter() - started > BUDGET:
            raise RuntimeError(f"only {len(ids)} of {n} asks appeared")
        await asyncio.sleep(0.2)
    settled = await settle([PID])
    early = sum(a.call.done() for a in agents)
    if early:
        raise RuntimeError(f"{early} ask_user calls ended before any answer")
    waiting = rss_mib(PID)
    threads = proc_status(PID)["Threads"]
    print(f"{n} agents in ask_user: server RSS {before:.1f} MiB before, {waiting:.1f} MiB with "
          f"{n} calls waiting ({threads} threads; settled in {settled:.1f} s)")

    client = await Client(URL).open()
    delays = []
    first = time.perf_counter()
    for agent in agents:
        if time.perf_counter() - first > BUDGET:
            break
        status, _ = await client.call("POST", f"/api/v1/asks/{ids[agent.title]}/answers", ANSWER)
        if status != 200:
            raise RuntimeError(f"answer: {status}")
        returned = time.perf_counter()
        await agent.call
        if agent.result != {"status": "answered", "answers": ANSWER["answers"]}:
            raise RuntimeError(f"{agent.title}: unexpected result {agent.result}")
        delays.append(max(0.0, agent.at - returned) * 1000)
    client.close()
    for agent in agents:
        agent.close()
    print(f"{n} agents, {len(delays)} answered one at a time, answer POST returned → "
          f"ask_user result received (ms): p50 {pct(delays, 0.5):.2f}, p99 {pct(delays, 0.99):.2f}, "
          f"max {max(delays):.2f}")
    emit({"kind": "mcp", "n": n, "rss_before_mib": before, "rss_waiting_mib": waiting,
          "answered": len(delays), "p50_ms": pct(delays, 0.5), "p99_ms": pct(delays, 0.99)})


if __name__ == "__main__":
    asyncio.run(run(int(sys.argv[1])))
