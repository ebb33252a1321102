"""Serve helpers for the SMS Ray tests: Serve on a free loopback port (once per Ray session) and
the gateway application deployed on it with a test's store, tokens and stand-ins."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from ray import serve

from gateway.app import build_app
from spine.demo import seed
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.ray_fixtures import free_port


async def seeded_store(directory: Path) -> Path:
    """A SQLite store file in `directory` with the demo data, closed for the replicas to open."""
    path = directory / "clara.db"
    spine = Spine(SqliteStore(path))
    await seed(spine)
    await spine.store.close()
    return path


def serve_http_port() -> int:
    """Start Serve's HTTP proxy on a free 127.0.0.1 port unless this Ray already runs Serve;
    either way, the port it actually listens on."""
    from ray.serve.context import _get_global_client

    try:
        client = _get_global_client()
    except Exception:  # noqa: BLE001 - Serve not started in this Ray yet
        client = None
    if client is None:
        serve.start(http_options={"host": "127.0.0.1", "port": free_port()})
        client = _get_global_client()
    return client.http_config.port  # the proxy keeps the options it was first started with


def deploy_gateway(name: str, *, env: dict[str, str], route_prefix: str = "/", sms: dict[str, Any] | None = None,
                   runtime: dict[str, Any] | None = None) -> None:
    """Deploy the gateway as application `name` (blocks until it is RUNNING). Its actor pool
    lives in a namespace of its own and dies with the replica (not detached)."""
    runtime_args = dict(namespace=f"sms-{uuid.uuid4().hex[:8]}", hosts=2, host_num_cpus=0.1,
                        dispatcher_num_cpus=0.1, detached=False)
    runtime_args.update(runtime or {})
    app = build_app({"runtime": runtime_args, "sms": sms or {}, "env": env})
    serve.run(app, name=name, route_prefix=route_prefix)


def undeploy(name: str) -> None:
    serve.delete(name)
