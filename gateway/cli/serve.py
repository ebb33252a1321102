"""`gateway serve`: run the gateway on Ray Serve from ray_config.yaml and block.

A thin wrapper over `serve run ray_config.yaml` (Ray's own CLI, in-process): it first makes the
settings concrete for the Ray processes it is about to start (a relative SQLite path becomes
absolute, its directory exists), optionally seeds the demo data, then starts Ray locally if none
is running (or joins RAY_ADDRESS / --address) and deploys the config.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from gateway.settings import Settings

DEFAULT_CONFIG = "ray_config.yaml"
APP_NAME = "clara"


class ServeStartError(RuntimeError):
    """The config could not be deployed; the message says why."""


def concrete_store_env() -> Settings:
    """Settings as the Ray workers will read them: GATEWAY_STORE with an absolute SQLite path
    (workers do not share this shell's working directory), exported to this process's env."""
    settings = Settings.from_env()
    if settings.store_url.startswith("sqlite:///"):
        path = Path(settings.store_url[len("sqlite:///"):]).expanduser().resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        os.environ["GATEWAY_STORE"] = f"sqlite:///{path}"
    return Settings.from_env()


def config_path(given: str | None) -> Path:
    path = Path(given or DEFAULT_CONFIG)
    if not path.is_file():
        raise ServeStartError(f"no Serve config at {path.resolve()} (pass --config PATH)")
    return path.resolve()


def stop_on_sigterm() -> None:
    """`kill PID` stops the gateway as Ctrl-C does (Serve shut down, local Ray stopped)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def deploy_config(path: Path, *, address: str | None = None, blocking: bool) -> None:
    """Ray's `serve run CONFIG` in this process (blocking: until Ctrl-C)."""
    from ray.serve.scripts import run as serve_run

    argv = [str(path), "--blocking" if blocking else "--non-blocking"]
    if address:
        argv += ["--address", address]
    serve_run.main(argv, standalone_mode=False)


def wait_until_running(app: str = APP_NAME, timeout_s: float = 120.0) -> None:
    from ray import serve

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = serve.status().applications.get(app)
        if status is not None and status.status == "RUNNING":
            return
        if status is not None and status.status in ("DEPLOY_FAILED", "UNHEALTHY"):
            raise ServeStartError(f"application {app!r} is {status.status}: {status.message}")
        time.sleep(0.5)
    raise ServeStartError(f"application {app!r} was not RUNNING within {timeout_s:.0f}s")


def register(sub) -> None:
    p = sub.add_parser("serve", help="run the gateway on Ray Serve from ray_config.yaml (blocks)")
    p.add_argument("--config", default=None, help=f"Serve config file (default ./{DEFAULT_CONFIG})")
    p.add_argument("--address", default=os.environ.get("RAY_ADDRESS"),
                   help="join this Ray cluster instead of starting one locally")
    p.add_argument("--seed", action="store_true", help="load the demo data into GATEWAY_STORE first")
    p.set_defaults(func=run)


async def _seed(settings: Settings) -> None:
    from gateway.cli.common import open_spine
    from spine.demo import seed

    spine = open_spine(settings)
    try:
        await seed(spine)
    finally:
        await spine.store.close()


def run(args) -> int:
    import asyncio

    try:
        path = config_path(args.config)
    except ServeStartError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    settings = concrete_store_env()
    if args.seed:
        asyncio.run(_seed(settings))
    print(f"store {settings.store_url}; model {settings.model}; public URL {settings.public_url}")
    if not settings.twilio_auth_token:
        print("warning: TWILIO_AUTH_TOKEN is not set: every /sms/twilio request will be refused (403)")
    print(f"serve run {path}  (Ray dashboard: http://127.0.0.1:8265 when Ray starts here)")
    import ray

    ray.init(address=args.address, namespace="serve")  # a local Ray unless one is given or running
    stop_on_sigterm()  # after ray.init, which installs its own SIGTERM handler
    deploy_config(path, blocking=True)
    return 0
