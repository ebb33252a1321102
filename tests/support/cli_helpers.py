"""The `gateway` command as a user runs it: the installed console script, in its own process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GATEWAY = Path(sys.executable).parent / "gateway"  # the installed console script


def run_gateway(*args: str, store_url: str, timeout_s: float = 60) -> subprocess.CompletedProcess:
    """The `gateway` command as a user runs it, in its own process, against `store_url`."""
    env = {**os.environ, "GATEWAY_STORE": store_url}
    return subprocess.run([str(GATEWAY), *args], env=env, capture_output=True, text=True, timeout=timeout_s)
