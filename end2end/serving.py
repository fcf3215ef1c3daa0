"""How a test knows the askdesk it started is serving: the line `askdesk
serve` prints on stdout with its URL. One place for Python;
end2end/serving.cjs is JavaScript's."""

import subprocess
import time

# The line askdesk serve prints on stdout once it serves, before its URL.
SERVING = "askdesk is serving on "


def wait_for_url(process: subprocess.Popen, deadline: float = 30.0, name: str = "askdesk") -> str:
    """Reads the server's announcement from its stdout (text mode): its URL."""
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        line = process.stdout.readline()
        if line.startswith(SERVING):
            return line[len(SERVING):].strip()
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode} before it served")
    raise RuntimeError(f"{name} did not announce its URL")
