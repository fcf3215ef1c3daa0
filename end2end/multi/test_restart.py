"""A rolling restart behind a real load balancer loses nothing: three
askdesk instances on one PostgreSQL behind HAProxy (health-checking
/readyz), a thousand agents long-polling their asks through it, answers
arriving while each instance in turn is stopped with SIGTERM (and
--shutdown-grace) and started again. Every answer the desk acknowledged
reaches its agent, each agent hears it once, and no ask is made twice.
With ASKDESK_BENCH_OUT set, the figures are written there as JSON."""

import asyncio
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time

import httpx2
import pytest

from test_multi import Instance, free_port, schema_of_its_own

AGENTS = int(os.environ.get("ASKDESK_RESTART_AGENTS", "1000"))
GRACE = 2
LABELS = ["Auth", "Logging", "Metrics"]

HAPROXY = """
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    retries 3
    option redispatch
frontend desk
    bind 127.0.0.1:{port}
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 250ms fall 1 rise 1
{servers}
"""


class Graceful(Instance):
    """An instance that drains for GRACE seconds on SIGTERM."""

    # Behind a balancer every client has its address: no per-address
    # limits (README, "Running several instances").
    SETTINGS = {
        "ASKDESK_SHUTDOWN_GRACE": str(GRACE),
        "ASKDESK_MAX_WAITS_PER_ADDRESS": "0",
        "ASKDESK_MAX_CONNECTIONS_PER_ADDRESS": "0",
    }

    def start(self):
        os.environ.update(self.SETTINGS)
        try:
            super().start()
        finally:
            for name in self.SETTINGS:
                del os.environ[name]

    def restart(self) -> float:
        """SIGTERM, wait for the exit, start again: the seconds it took."""
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=GRACE + 20) == 0, f"{self.name} exited badly"
        self.start()
        return time.monotonic() - began


@pytest.fixture
def balanced():
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    assert os.path.exists(haproxy), "haproxy is not installed (scripts/dev.sh installs it)"
    with schema_of_its_own("restart") as url, tempfile.TemporaryDirectory() as logs:
        instances = [Graceful(name, url, logs) for name in ("one", "two", "three")]
        balancer = None
        try:
            for instance in instances:
                instance.start()
            port = free_port()
            servers = "\n".join(
                f"    server {i.name} 127.0.0.1:{i.port} check" for i in instances
            )
            config = f"{logs}/haproxy.cfg"
            with open(config, "w") as f:
                f.write(HAPROXY.format(port=port, servers=servers))
            balancer = subprocess.Popen(
                [haproxy, "-db", "-f", config],
                stdout=subprocess.DEVNULL,
                stderr=open(f"{logs}/haproxy.log", "w"),
            )
            front = f"http://127.0.0.1:{port}"
            ready = False
            for _ in range(200):
                assert balancer.poll() is None, open(f"{logs}/haproxy.log").read()
                try:
                    ready = httpx2.get(f"{front}/readyz", timeout=1).status_code == 200
                except httpx2.HTTPError:
                    pass
                if ready:
                    break
                time.sleep(0.05)
            assert ready, "HAProxy passes requests on"
            yield front, instances
        finally:
            if balancer:
                balancer.terminate()
                balancer.wait(timeout=10)
            for instance in instances:
                instance.stop()


def ask(i: int) -> dict:
    return {
        "title": f"agent {i}",
        "agent": f"agent-{i}",
        "questions": [
            {"id": "q", "question": "Which part?", "options": [{"label": l} for l in LABELS]},
        ],
    }


class Tally:
    retries = 0


async def call(client, tally, method, path, **kwargs):
    """The call, tried again through the balancer while an instance is
    going or coming (a broken connection, 502, 503)."""
    for _ in range(400):
        try:
            response = await client.request(method, path, **kwargs)
            if response.status_code not in (502, 503, 504):
                return response
        except httpx2.TransportError:
            pass
        tally.retries += 1
        await asyncio.sleep(0.05)
    raise AssertionError(f"{method} {path} never got through")


async def create(client, tally, i, ids):
    # The key makes a retried creation the same ask.
    key = f"restart-agent-{i}"
    created = await call(client, tally, "POST", "/api/v1/asks", json=ask(i),
                         headers={"idempotency-key": key})
    assert created.status_code in (200, 201), created.text
    ids[i] = created.json()["id"]


async def agent(client, tally, i, ids, heard):
    while True:
        read = await call(client, tally, "GET", f"/api/v1/asks/{ids[i]}?wait=25")
        assert read.status_code == 200, read.text
        body = read.json()
        if body["status"] != "pending":
            heard.setdefault(i, []).append((body["status"], body.get("answers"), time.monotonic()))
            return


async def answer(client, tally, i, ids, acknowledged):
    label = LABELS[i % len(LABELS)]
    mine = [{"id": "q", "selected": [label]}]
    response = await call(client, tally, "POST", f"/api/v1/asks/{ids[i]}/answers",
                          json={"answers": mine})
    if response.status_code == 409:
        # A retry of an answer whose reply was lost: the desk has ours.
        assert response.json()["ask"]["answers"] == mine, response.text
    else:
        assert response.status_code == 200, response.text
    acknowledged[i] = (mine, time.monotonic())


async def scenario(front, instances):
    tally = Tally()
    ids, heard, acknowledged, restarts = {}, {}, {}, []
    limits = httpx2.Limits(max_connections=AGENTS + 50, max_keepalive_connections=AGENTS + 50)
    async with httpx2.AsyncClient(base_url=front, timeout=60, limits=limits) as client:
        await asyncio.wait_for(
            asyncio.gather(*(create(client, tally, i, ids) for i in range(AGENTS))), timeout=120
        )
        agents = [asyncio.create_task(agent(client, tally, i, ids, heard)) for i in range(AGENTS)]

        async def restart_each():
            for instance in instances:
                restarts.append(await asyncio.to_thread(instance.restart))
                await asyncio.sleep(0.5)

        restarting = asyncio.create_task(restart_each())
        began = time.monotonic()
        # Answers arrive throughout the restarts.
        answering = []
        for i in range(AGENTS):
            answering.append(asyncio.create_task(answer(client, tally, i, ids, acknowledged)))
            await asyncio.sleep(3 * (GRACE + 2) / AGENTS)
        await asyncio.wait_for(asyncio.gather(*answering), timeout=120)
        await asyncio.wait_for(restarting, timeout=120)
        await asyncio.wait_for(asyncio.gather(*agents), timeout=120)
        listed = await call(client, tally, "GET", "/api/v1/asks?format=jsonl")
        asks = [line for line in listed.text.splitlines() if line.strip()]
    return tally, ids, heard, acknowledged, restarts, began, len(asks)


def test_a_rolling_restart_behind_haproxy_loses_no_acknowledged_answer(balanced):
    front, instances = balanced
    # A socket per agent.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    tally, ids, heard, acknowledged, restarts, began, stored = asyncio.run(
        scenario(front, instances)
    )
    assert len(restarts) == 3, "each instance was restarted"
    assert len(acknowledged) == AGENTS
    assert stored == AGENTS, f"{stored} asks stored for {AGENTS} agents: none made twice"
    assert len(set(ids.values())) == AGENTS
    for i, (mine, _) in acknowledged.items():
        assert len(heard[i]) == 1, f"agent {i} heard its answer {len(heard[i])} times"
        status, answers, _ = heard[i][0]
        assert (status, answers) == ("answered", mine), f"agent {i}"
    late = sorted(max(0.0, heard[i][0][2] - acknowledged[i][1]) for i in acknowledged)
    figures = {
        "agents": AGENTS,
        "instances": len(instances),
        "shutdown_grace_s": GRACE,
        "restart_s": [round(r, 2) for r in restarts],
        "retried_calls": tally.retries,
        "answer_to_agent_p50_s": round(late[len(late) // 2], 3),
        "answer_to_agent_p99_s": round(late[int(len(late) * 0.99) - 1], 3),
        "answer_to_agent_max_s": round(late[-1], 3),
        "lost": 0,
        "heard_twice": 0,
    }
    print(json.dumps(figures))
    out = os.environ.get("ASKDESK_BENCH_OUT")
    if out:
        with open(out, "w") as f:
            json.dump(figures, f, indent=2)
