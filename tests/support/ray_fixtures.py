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

    def start() -> None:
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                 _temp_dir=temp_dir, _metrics_export_port=free_port(), runtime_env=None, configure_logging=False)

    try:
        start()
    except Exception as exc:  # Ray gives its raylet a fixed 30 s to register: too short on a busy machine
        if "timed out during startup" not in str(exc):
            raise
        ray.shutdown()
        start()
    return temp_dir


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group the tests for `make test` (pytest-xdist, `--dist loadgroup`): every Ray-marked test in
    one group, so one worker runs them all on one private Ray while the others run the rest, and
    every other module as a group of its own, so a module-scoped fixture runs once. Among the Ray
    tests, those on the shared gateway application (`serve_gateway`) run last: modules that deploy
    an application of their own need Serve's route prefix `/` while it is free."""
    on_ray = {item.nodeid for item in items if item.get_closest_marker("ray")}
    for item in items:
        item.add_marker(pytest.mark.xdist_group("ray" if item.nodeid in on_ray else item.nodeid.split("::")[0]))
    shared_last = sorted((item for item in items if item.nodeid in on_ray),
                         key=lambda item: "serve_gateway" in item.fixturenames)
    items[:] = [item for item in items if item.nodeid not in on_ray] + shared_last


@pytest.fixture(scope="session")
def ray_session():
    import ray

    temp_dir = private_ray_init()
    yield ray
    ray.shutdown()
    shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture(scope="session")
async def serve_gateway(ray_session, tmp_path_factory):
    """The gateway application on Serve, deployed once for every Ray module that drives it over
    HTTP (a deployment costs tens of seconds: a replica, PersonActor hosts, the DispatcherActor).
    See tests/support/serve_helpers.py for its settings and stand-ins."""
    from tests.support.serve_helpers import shared_gateway

    async with shared_gateway(tmp_path_factory.mktemp("shared-gateway")) as gateway:
        yield gateway
