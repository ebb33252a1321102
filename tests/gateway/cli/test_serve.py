"""`gateway serve` refuses to start what would not work, quickly and in one line, before any Ray
starts: a broken config, a busy port (a second gateway), a Ray address nobody answers at."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from gateway.cli.serve import ADDRESS_TIMEOUT_S, ServeStartError, connect_ray
from spine.store.sqlite import SqliteStore
from tests.support.ray_fixtures import free_port

ROOT = Path(__file__).resolve().parents[3]
GATEWAY = Path(sys.executable).parent / "gateway"


def serve(tmp_path: Path, *args: str, port: int | None = None, sms: dict | None = None,
          timeout_s: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    config = yaml.safe_load((ROOT / "ray_config.yaml").read_text())
    config["http_options"]["port"] = port or free_port()
    config["applications"][0]["args"]["sms"].update(sms or {})
    path = tmp_path / "ray_config.yaml"
    path.write_text(yaml.safe_dump(config))
    asyncio.run(SqliteStore(tmp_path / "clara.db").close())
    env = {**os.environ, "GATEWAY_STORE": f"sqlite:///{tmp_path / 'clara.db'}", "TWILIO_AUTH_TOKEN": "t",
           "GATEWAY_METRICS_PORT": str(free_port()), "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{config['http_options']['port']}"}
    env.pop("RAY_ADDRESS", None)
    started = time.monotonic()
    done = subprocess.run([str(GATEWAY), "serve", "--config", str(path), *args], env=env, capture_output=True,
                          text=True, timeout=timeout_s)
    return done, time.monotonic() - started


def test_a_broken_config_exits_2_with_its_lines_and_no_traceback(tmp_path):
    done, _ = serve(tmp_path, sms={"inline_budget_s": 20})
    assert done.returncode == 2
    assert "error: ray_config.yaml.applications[clara].args.sms.inline_budget_s: Input should be less than 15" in done.stderr
    assert "Traceback" not in done.stderr and "ray: started" not in done.stdout


def test_a_busy_port_is_refused(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done, _ = serve(tmp_path, port=taken.getsockname()[1])
    assert done.returncode == 1
    assert "is already in use (another gateway?)" in done.stderr
    assert "ray: started" not in done.stdout


def test_an_absent_ray_address_fails_with_the_reason(tmp_path):
    done, _ = serve(tmp_path, "--address", f"127.0.0.1:{free_port()}")
    assert done.returncode == 1
    assert "error: no Ray at 127.0.0.1:" in done.stderr and "Connection refused" in done.stderr
    assert "Traceback" not in done.stderr


def test_joining_an_absent_ray_does_not_wait_for_rays_retries():
    # Ray's own client retries a GCS that is not there for minutes; nothing listening is seen at once.
    started = time.monotonic()
    with pytest.raises(ServeStartError, match="no Ray at"):
        connect_ray(f"127.0.0.1:{free_port()}", metrics_port=free_port())
    assert time.monotonic() - started < ADDRESS_TIMEOUT_S


def _time_wait_on(port: int) -> None:
    """A connection the server side closes first: its socket, on `port`, stays in TIME_WAIT."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
    listener.bind(("127.0.0.1", port))
    listener.listen()
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    accepted.close()  # the server closes first: TIME_WAIT on its side
    time.sleep(0.05)
    client.close()
    listener.close()


def test_a_port_in_time_wait_after_a_stop_is_free_and_a_listener_is_not():
    # Issue 40 item 15: a restart right after a stop was refused for about a minute.
    from gateway.cli.serve import port_free

    port = free_port()
    _time_wait_on(port)
    states = subprocess.run(["ss", "-tan", f"sport = :{port}"], capture_output=True, text=True).stdout
    assert "TIME-WAIT" in states
    assert port_free("127.0.0.1", port)
    with socket.socket() as live:
        live.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a server started over the TIME_WAIT
        live.bind(("127.0.0.1", port))
        live.listen()
        assert not port_free("127.0.0.1", port)
