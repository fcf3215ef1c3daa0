"""Fixtures: a real askdesk server (the debug binary) on a free loopback port."""

import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("ASKDESK_BIN", ROOT / "target" / "debug" / "askdesk"))
SITE = os.environ.get("ASKDESK_SITE_ROOT", str(ROOT / "target" / "site"))


@pytest.fixture
def anyio_backend():
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The line askdesk serve prints on stdout once it serves, before its URL.
SERVING = "askdesk is serving on "


def wait_for_url(process: subprocess.Popen, deadline: float = 30.0) -> str:
    """Reads the server's announcement line from its stdout."""
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        line = process.stdout.readline()
        if line.startswith(SERVING):
            return line.split()[-1]
        if process.poll() is not None:
            raise RuntimeError(f"askdesk exited with {process.returncode}")
    raise RuntimeError("askdesk did not announce its URL")


@pytest.fixture(scope="session")
def server_url():
    with tempfile.TemporaryDirectory() as tmp:
        process = subprocess.Popen(
            [str(BINARY), "--addr", "127.0.0.1:0", "--database", f"{tmp}/asks.db", "--site-root", SITE],
            stdout=subprocess.PIPE,
            stderr=open(f"{tmp}/server.log", "w"),
            text=True,
        )
        try:
            yield wait_for_url(process)
        finally:
            process.terminate()
            process.wait(timeout=10)
