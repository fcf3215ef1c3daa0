"""Fixtures: a real askdesk server (the debug binary) on a free loopback port."""

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# end2end/serving.py: how every Python test sees an askdesk start.
sys.path.insert(0, str(ROOT / "end2end"))
from serving import SERVING, wait_for_url  # noqa: E402,F401  (the tests import both from here)
BINARY = Path(os.environ.get("ASKDESK_BIN", ROOT / "target" / "debug" / "askdesk"))
SITE = os.environ.get("ASKDESK_SITE_ROOT", str(ROOT / "target" / "site"))


@pytest.fixture
def anyio_backend():
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
