"""`gateway check-config`: each broken config or environment is caught with one line that says
where and what; the shipped ray_config.yaml with a sane environment passes."""
from __future__ import annotations

import asyncio
import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gateway.config_check import check_config
from spine.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "ray_config.yaml"
GATEWAY = Path(sys.executable).parent / "gateway"


@pytest.fixture
def good_env(tmp_path) -> dict[str, str]:
    asyncio.run(SqliteStore(tmp_path / "clara.db").close())  # an empty gateway database
    return {"GATEWAY_STORE": f"sqlite:///{tmp_path / 'clara.db'}", "TWILIO_AUTH_TOKEN": "t",
            "TWILIO_ACCOUNT_SID": "AC1", "GATEWAY_ADMIN_TOKEN": "a"}


def shipped() -> dict:
    return yaml.safe_load(CONFIG.read_text())


def write(tmp_path: Path, config: dict | str) -> Path:
    path = tmp_path / "ray_config.yaml"
    path.write_text(config if isinstance(config, str) else yaml.safe_dump(config))
    return path


def args_of(config: dict) -> dict:
    return config["applications"][0]["args"]


def runtime_of(config: dict) -> dict:
    """The runtime the replicas get: GatewayIngress's user_config (applied live)."""
    return config["applications"][0]["deployments"][0]["user_config"]["runtime"]


def problems(tmp_path: Path, config: dict | str, env: dict[str, str]) -> list[str]:
    return check_config(write(tmp_path, config), env).problems


def test_the_shipped_config_passes(tmp_path, good_env):
    checked = check_config(CONFIG, good_env)
    assert checked.problems == [] and checked.warnings == []
    assert checked.args is not None


def edited(change) -> dict:
    config = copy.deepcopy(shipped())
    change(config)
    return config


# (what is broken, how, the one line that must say so)
FILE_CASES = [
    ("inline budget past Twilio's 15 s", lambda c: args_of(c)["sms"].update(inline_budget_s=20),
     "args.sms.inline_budget_s: Input should be less than 15 (got 20)"),
    ("a typo inside runtime", lambda c: runtime_of(c).update(hostz=0), "user_config.runtime.hostz: unknown key"),
    ("zero hosts", lambda c: runtime_of(c).update(hosts=0),
     "user_config.runtime.hosts: Input should be greater than or equal to 1 (got 0)"),
    ("a typo inside args.runtime", lambda c: args_of(c).update(runtime={"hostz": 0}), "args.runtime.hostz: unknown key"),
    ("a typo at the top of args", lambda c: args_of(c).update(sms_budget=3), "args.sms_budget: unknown key"),
    ("a typo inside sms", lambda c: args_of(c)["sms"].update(inline_budget=3), "args.sms.inline_budget: unknown key"),
    ("the store set in the yaml", lambda c: runtime_of(c).update(store_url="sqlite:///x.db"),
     "store_url (GATEWAY_STORE) come from the environment"),
    ("an unknown env name", lambda c: args_of(c).update(env={"GATEWAY_STOR": "x"}), "unknown setting(s) GATEWAY_STOR"),
    ("model budget above the turn's", lambda c: args_of(c).update(runtime={"model_call_s": 20}),
     "runtime.model_call_s (20.0) must be above 0 and at most runtime.turn_total_s (12.0)"),
    ("sweep that would fail live turns",
     lambda c: (args_of(c)["sms"].update(abandoned_after_s=30), args_of(c).update(runtime={"turn_total_s": 25})),
     "sms.abandoned_after_s (30.0) must outlast a whole turn"),
    ("a typo at the top level", lambda c: c.update(aplications=[]), "ray_config.yaml.aplications: unknown key"),
    ("a typo in http_options", lambda c: c["http_options"].update(hots="0.0.0.0"),
     "ray_config.yaml.http_options.hots: unknown key"),
    ("a typo in the deployment", lambda c: c["applications"][0]["deployments"][0].update(max_ongoing_requestz=5),
     "deployments[GatewayIngress].max_ongoing_requestz: unknown key"),
    ("a typo in autoscaling", lambda c: c["applications"][0]["deployments"][0]["autoscaling_config"].update(min_replica=1),
     "autoscaling_config.min_replica: unknown key"),
    ("a deployment the gateway does not have", lambda c: c["applications"][0]["deployments"][0].update(name="Ingress"),
     "deployments[Ingress]: no such deployment (the gateway has one: GatewayIngress)"),
    ("no gateway application", lambda c: c["applications"][0].update(import_path="app:main"),
     "expected one application with import_path gateway.app:build_app, found 0"),
    ("Serve's own range", lambda c: c["http_options"].update(port="eighty"), "ray_config.yaml.http_options.port"),
]


@pytest.mark.parametrize("what,change,line", FILE_CASES, ids=[case[0] for case in FILE_CASES])
def test_a_broken_file_is_one_line_that_says_where(tmp_path, good_env, what, change, line):
    found = problems(tmp_path, edited(change), good_env)
    assert len(found) == 1, found
    assert line in found[0]
    assert "\n" not in found[0]


def test_a_file_that_is_not_yaml(tmp_path, good_env):
    [line] = problems(tmp_path, "applications: [\n  - name: clara\n", good_env)
    assert line.startswith("ray_config.yaml: not valid YAML at line")


ENV_CASES = [
    ("sqlite folder missing", {"GATEWAY_STORE": "sqlite:///nonexistent/dir/x.db"}, "folder", "does not exist"),
    ("sqlite URL without its slashes", {"GATEWAY_STORE": "sqlite:var/clara.db"}, "three slashes", "four"),
    ("an unknown store scheme", {"GATEWAY_STORE": "postgres://db/clara"}, "unsupported GATEWAY_STORE", "sqlite:///"),
    ("a dynamodb URL with a typo", {"GATEWAY_STORE": "dynamodb://clara?regoin=eu-west-1"}, "unknown parameter(s) regoin",
     "endpoint_url"),
    ("an unknown model", {"GATEWAY_MODEL": "gpt"}, "GATEWAY_MODEL: Input should be 'anthropic' or 'offline'", "gpt"),
    ("anthropic without a key", {"GATEWAY_MODEL": "anthropic"}, "GATEWAY_MODEL: anthropic needs ANTHROPIC_API_KEY", ""),
    ("no Twilio token", {"TWILIO_AUTH_TOKEN": ""}, "TWILIO_AUTH_TOKEN: not set", "403"),
    ("a public URL that is not https", {"GATEWAY_PUBLIC_URL": "http://clara.example.com"}, "GATEWAY_PUBLIC_URL", "https"),
    ("a public URL that is not a URL", {"GATEWAY_PUBLIC_URL": "clara.example.com"}, "GATEWAY_PUBLIC_URL",
     "not an absolute"),
    ("a metrics port that is not a port", {"GATEWAY_METRICS_PORT": "99999"}, "GATEWAY_METRICS_PORT", "99999"),
    ("metrics on Serve's port", {"GATEWAY_METRICS_PORT": "8000"}, "GATEWAY_METRICS_PORT: 8000 is Serve's HTTP port", ""),
    # Issue 40 item 17: Telegram takes 1-256 of A-Z a-z 0-9 _ - as setWebhook's secret_token.
    ("a Telegram secret Telegram refuses", {"TELEGRAM_WEBHOOK_SECRET": "s3cret!with spaces"},
     "TELEGRAM_WEBHOOK_SECRET: characters Telegram does not allow: ' ' '!'", "1-256"),
    ("a Telegram secret too long", {"TELEGRAM_WEBHOOK_SECRET": "a" * 257}, "TELEGRAM_WEBHOOK_SECRET: 257 characters", ""),
]


@pytest.mark.parametrize("what,change,must,also", ENV_CASES, ids=[case[0] for case in ENV_CASES])
def test_a_broken_environment_is_one_line(tmp_path, good_env, what, change, must, also):
    found = check_config(CONFIG, {**good_env, **change}).problems
    assert len(found) == 1, found
    assert must in found[0] and also in found[0]


def test_https_public_url_and_loopback_http_are_both_fine(good_env):
    assert check_config(CONFIG, {**good_env, "GATEWAY_PUBLIC_URL": "https://clara.example.com"}).ok
    assert check_config(CONFIG, {**good_env, "GATEWAY_PUBLIC_URL": "http://localhost:8000"}).ok


def test_a_missing_sqlite_database_is_a_warning_and_is_not_created(tmp_path, good_env):
    db = tmp_path / "fresh" / "clara.db"
    db.parent.mkdir()
    checked = check_config(CONFIG, {**good_env, "GATEWAY_STORE": f"sqlite:///{db}"})
    assert checked.ok and any("no database yet" in w for w in checked.warnings)
    assert not db.exists()


def test_dynamodb_without_its_table_is_one_line(good_env, moto_server):
    found = check_config(CONFIG, {**good_env, "GATEWAY_STORE": moto_server.store_url("absent-table")}).problems
    assert len(found) == 1 and "no DynamoDB table 'absent-table'" in found[0]
    assert "gateway dynamodb create-table" in found[0]


def test_the_cli_prints_one_line_per_problem_and_fails(tmp_path, good_env):
    config = edited(lambda c: (args_of(c)["sms"].update(inline_budget_s=20), runtime_of(c).update(hostz=0)))
    path = write(tmp_path, config)
    env = {**os.environ, **good_env, "GATEWAY_MODEL": "gpt"}
    done = subprocess.run([str(GATEWAY), "check-config", str(path)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 3, done.stderr
    assert "Traceback" not in done.stderr
    ok = subprocess.run([str(GATEWAY), "check-config", str(CONFIG)], env={**os.environ, **good_env},
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "ok" in ok.stdout, ok.stderr
