"""`gateway serve`: check the config, start Ray, deploy ray_config.yaml, say when it is ready, block.

Before anything starts it runs `gateway check-config` (one line per problem, exit 2), refuses a
busy HTTP or metrics port (a second gateway on the same store), and, with --address, refuses a
Ray that does not answer within 15 s. Without --address it starts a local Ray of its own with
the metrics export port fixed (GATEWAY_METRICS_PORT, default 8080) and the Serve configuration
the gateway is measured fastest in (SERVE_MODE). Once the routes answer it prints one `ready`
line; Ctrl-C or SIGTERM stops Serve and the local Ray.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

import httpx

from gateway.config_check import CheckedConfig, check_config
from gateway.errors import GatewayError
from gateway.settings import Settings

DEFAULT_CONFIG = "ray_config.yaml"
APP_NAME = "clara"
ADDRESS_TIMEOUT_S = 15.0
READY_TIMEOUT_S = 120.0

# The Serve configuration `gateway serve`, `make run` and deploy/ use, set before Ray starts
# (bench/serve_config.py measures it against the others). An operator's own value wins.
SERVE_MODE: dict[str, str] = {}


class ServeStartError(GatewayError, RuntimeError):
    """The gateway could not start; the message says why, in one line (exit status 1)."""

    code = 1


class ConfigProblems(ServeStartError):
    """`gateway check-config` found problems: one `error:` line each (exit status 2)."""

    code = 2


def concrete_store_env() -> Settings:
    """Settings as the Ray workers will read them: GATEWAY_STORE with an absolute SQLite path
    (workers do not share this shell's working directory), exported to this process's env."""
    from spine.store.url import parse_store_url

    settings = Settings.from_env()
    where = parse_store_url(settings.store_url)
    if where.kind == "sqlite" and where.path != ":memory:":
        os.environ["GATEWAY_STORE"] = f"sqlite:///{Path(where.path).expanduser().resolve()}"
    return Settings.from_env()


def config_path(given: str | None) -> Path:
    path = Path(given or DEFAULT_CONFIG)
    if not path.is_file():
        raise ServeStartError(f"no Serve config at {path.resolve()} (pass --config PATH)")
    return path.resolve()


def checked_config(given: str | None) -> CheckedConfig:
    """`gateway check-config` on the file and this environment; warnings printed, problems raised."""
    checked = check_config(config_path(given), os.environ)
    for line in checked.warnings:
        print(f"warning: {line}", file=sys.stderr)
    if not checked.ok:
        raise ConfigProblems("\n".join(f"error: {line}" for line in checked.problems))
    return checked


def port_free(host: str, port: int) -> bool:
    """Whether the server could bind the port now. Serve's proxy binds with SO_REUSEADDR
    (ray.serve._private.http_util, as uvicorn's `bind_socket` does), so the check does as well:
    a socket left in TIME_WAIT by a gateway just stopped would refuse a plain bind for about a
    minute, though the server binds over it (issue 40 item 15). Not SO_REUSEPORT (which Serve
    also sets): a live listener, another gateway, must still refuse."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def refuse_busy_ports(checked: CheckedConfig) -> None:
    assert checked.serve is not None and checked.settings is not None  # a config that passed its check has both
    http, settings = checked.serve.http_options, checked.settings
    if not port_free(http.host, http.port):
        raise ServeStartError(f"{http.host}:{http.port} is already in use (another gateway?); stop it, or change "
                              "http_options.port in the config and GATEWAY_PUBLIC_URL to match")
    if not port_free("0.0.0.0", settings.metrics_port):
        raise ServeStartError(f"metrics port {settings.metrics_port} is already in use; set GATEWAY_METRICS_PORT")


def connect_ray(address: str | None, metrics_port: int) -> str | None:
    """A local Ray of our own (metrics on `metrics_port`; returns its dashboard URL), or the
    cluster at `address`, joined within 15 s."""
    import ray

    if not address:
        for name, value in SERVE_MODE.items():
            os.environ.setdefault(name, value)  # read by the Serve controller, proxies and replicas
        context = ray.init(address="local", namespace="serve", _metrics_export_port=metrics_port,
                           log_to_driver=False, configure_logging=False)
        dashboard = getattr(context, "dashboard_url", None)
        return f"http://{dashboard}" if dashboard else None
    _reachable(address)
    failure: list[BaseException] = []

    def join() -> None:
        try:
            ray.init(address=address, namespace="serve", log_to_driver=False, configure_logging=False)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            failure.append(exc)

    joining = threading.Thread(target=join, daemon=True)  # a hung connect must not keep us alive
    joining.start()
    joining.join(ADDRESS_TIMEOUT_S)
    if joining.is_alive():
        raise ServeStartError(f"Ray at {address} did not answer within {ADDRESS_TIMEOUT_S:.0f}s")
    if failure:
        raise ServeStartError(f"cannot join Ray at {address}: {str(failure[0]).splitlines()[0]}")
    return None


def _reachable(address: str) -> None:
    """Fail fast (seconds, not minutes of Ray's retries) when nothing listens at host:port."""
    target = address.removeprefix("ray://")
    if target == "auto" or ":" not in target:
        return
    host, _, port = target.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=3.0).close()
    except (OSError, ValueError) as exc:
        raise ServeStartError(f"no Ray at {address}: {exc}") from exc


def deploy_config(path: Path) -> None:
    """Ray's `serve run CONFIG --non-blocking` in this process."""
    from ray.serve.scripts import run as serve_run

    serve_run.main([str(path), "--non-blocking"], standalone_mode=False)


def wait_until_running(app: str = APP_NAME, timeout_s: float = READY_TIMEOUT_S) -> None:
    from ray import serve

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = serve.status().applications.get(app)
        if status is not None and status.status == "RUNNING":
            return
        if status is not None and status.status in ("DEPLOY_FAILED", "UNHEALTHY"):
            raise ServeStartError(f"application {app!r} is {status.status}: {status.message.splitlines()[-1]}")
        time.sleep(0.5)
    raise ServeStartError(f"application {app!r} was not RUNNING within {timeout_s:.0f}s")


def wait_until_answering(checked: CheckedConfig, timeout_s: float = READY_TIMEOUT_S) -> str:
    """The local URL once GET /readyz answers 200 through Serve's proxy (routes mounted, store up)."""
    assert checked.serve is not None  # a config that passed its check
    http = checked.serve.http_options
    host = "127.0.0.1" if http.host in ("0.0.0.0", "::") else http.host
    url = f"http://{host}:{http.port}"
    deadline, last = time.monotonic() + timeout_s, "no answer"
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{url}/readyz", timeout=2.0)
            if response.status_code == 200:
                return url
            last = f"HTTP {response.status_code}: {response.text[:200]}"
        except httpx.HTTPError as exc:
            last = str(exc) or type(exc).__name__
        time.sleep(0.3)
    raise ServeStartError(f"{url}/readyz did not answer 200 within {timeout_s:.0f}s ({last})")


def start_gateway(checked: CheckedConfig, address: str | None) -> str:
    """Ray up, the config deployed, the routes answering: returns the local URL. On failure
    after Ray started, what was started here is stopped again."""
    import ray

    settings = checked.settings
    assert settings is not None  # a config that passed its check has its settings
    if not address:
        refuse_busy_ports(checked)
    dashboard = connect_ray(address, settings.metrics_port)
    try:
        if not address:
            print(f"ray: started locally; dashboard {dashboard or '(not running)'}; metrics "
                  f"http://127.0.0.1:{settings.metrics_port}/metrics (Prometheus; the gateway's clara_* beside Ray's)")
            if os.environ.get("RAY_AUTH_MODE") == "token":
                print("ray: token authentication is on; `export RAY_AUTH_MODE=token` for `serve status`, "
                      "`ray get-auth-token` for the dashboard")
        deploy_config(checked.path)
        wait_until_running()
        return wait_until_answering(checked)
    except BaseException:
        if not address:
            ray.shutdown()
        raise


def stop_on_sigterm() -> None:
    """`kill PID` stops the gateway as Ctrl-C does (Serve shut down, local Ray stopped)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def block_until_stopped(address: str | None) -> None:
    import ray
    from ray import serve

    stop_on_sigterm()  # after ray.init, which installs its own SIGTERM handler
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("\nstopping")
    finally:
        if not address:  # a cluster we joined keeps its application
            serve.shutdown()
        ray.shutdown()


def register(sub) -> None:
    p = sub.add_parser("serve", help="check the config, run the gateway on Ray Serve from ray_config.yaml (blocks)")
    p.add_argument("--config", default=None, help=f"Serve config file (default ./{DEFAULT_CONFIG})")
    p.add_argument("--address", default=os.environ.get("RAY_ADDRESS"),
                   help="join this Ray cluster (host:port, ray://host:port or auto) instead of starting one")
    p.add_argument("--seed", action="store_true", help="load the demo data into GATEWAY_STORE first")
    p.set_defaults(func=run)


async def seed_store(settings: Settings) -> None:
    from desk.portfolio.demo import seed
    from gateway.cli.common import open_spine_for_writing

    spine = await open_spine_for_writing(settings)
    try:
        await seed(spine)
    finally:
        await spine.store.close()


def report(exc: ServeStartError) -> int:
    print(exc if isinstance(exc, ConfigProblems) else f"error: {exc}", file=sys.stderr)
    return exc.code


def run(args) -> int:
    import asyncio

    try:
        checked = checked_config(args.config)
        settings = concrete_store_env()
        if args.seed:
            asyncio.run(seed_store(settings))
        print(f"store {settings.store_url}; model {settings.model}; public URL {settings.public_url}")
        url = start_gateway(checked, args.address)
    except ServeStartError as exc:
        return report(exc)
    print(f"ready: {url} answers (POST /sms/twilio, GET /readyz); public URL {settings.public_url}", flush=True)
    block_until_stopped(args.address)
    return 0
