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


RAY_GROUPS = ("ray-actors", "ray-serve")  # the first runs alone on its worker: see the hook below


def ray_group(item: pytest.Item) -> str | None:
    """`ray-<group>` for a Ray-marked test (`@pytest.mark.ray("actors")`; 'serve' unless named)."""
    marker = item.get_closest_marker("ray")
    if marker is None:
        return None
    return f"ray-{marker.args[0] if marker.args else 'serve'}"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group the tests for `make test` (pytest-xdist, `--dist loadgroup`). Each Ray group goes to
    one worker, which starts its own private Ray for it, and the groups start first: they are the
    longest and mostly wait (on actors, timeouts, Serve), so the other workers run every other
    module (one group each, so a module-scoped fixture runs once) beside them. 'actors' tests
    drive pools and their own Serve applications; 'serve' tests share the gateway application
    (`serve_gateway`) and run last in their group, since an application of a module's own needs
    Serve's route prefix `/` while it is free."""
    groups = {item.nodeid: ray_group(item) or item.nodeid.split("::")[0] for item in items}
    for item in items:
        item.add_marker(pytest.mark.xdist_group(groups[item.nodeid]))
        if groups[item.nodeid] == "ray-actors" and "serve_gateway" in item.fixturenames:
            raise pytest.UsageError(f"{item.nodeid}: a 'ray-actors' test cannot use serve_gateway")

    def order(item: pytest.Item) -> tuple[int, bool]:
        group = groups[item.nodeid]
        return (RAY_GROUPS.index(group) if group in RAY_GROUPS else len(RAY_GROUPS),
                "serve_gateway" in item.fixturenames)

    items.sort(key=order)  # stable: the collection order within each rank


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
