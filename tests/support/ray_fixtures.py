"""The one private Ray instance of a test session (tests marked `@pytest.mark.ray`).

`ray.init(address="local")` starts a fresh head node that binds its GCS, agents and workers to
ports the OS picks (port 0), so parallel sessions and a running `gateway demo` never collide; the
dashboard is off, and the metrics port is a free one we pick. Its temp dir is private to this
process. Workers import this checkout (not whatever an editable install points at) because the
repo root leads PYTHONPATH, which every Ray worker inherits; no runtime_env upload is needed.
"""
from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def private_ray_init(num_cpus: int = 4, *, tag: str = "clara-ray") -> str:
    """Start a private local Ray; returns its temp dir. Shared by the tests and bench/."""
    import ray

    paths = [str(REPO_ROOT), *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    os.environ.pop("RAY_ADDRESS", None)  # never attach to someone else's cluster
    os.environ.pop("RAY_GCS_SERVER_PORT", None)  # keep the GCS on an OS-picked port
    temp_dir = f"/tmp/{tag}-{os.getpid()}"
    ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
             _temp_dir=temp_dir, _metrics_export_port=free_port(), runtime_env=None,
             configure_logging=False)
    return temp_dir


@pytest.fixture(scope="session")
def ray_session():
    import ray

    temp_dir = private_ray_init()
    yield ray
    ray.shutdown()
    shutil.rmtree(temp_dir, ignore_errors=True)
