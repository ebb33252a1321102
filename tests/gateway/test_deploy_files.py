"""The deployment files agree with the code: KubeRay's serveConfigV2 is ray_config.yaml's
applications and passes `gateway check-config`; the RayService follows KubeRay's conventions
(head with no CPUs, worker groups, GCS fault tolerance through Redis, secrets from Secrets,
DynamoDB); the Dockerfile installs the project from its pyproject and runs as non-root."""
from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import yaml

from gateway.cli.serve import SERVE_MODE
from gateway.config_check import check_config
from gateway.settings import ENV

ROOT = Path(__file__).resolve().parents[2]
RAY_CONFIG = yaml.safe_load((ROOT / "ray_config.yaml").read_text())
MANIFEST = [doc for doc in yaml.safe_load_all((ROOT / "deploy" / "kuberay" / "rayservice.yaml").read_text()) if doc]
[SERVICE] = [doc for doc in MANIFEST if doc["kind"] == "RayService"]
SERVE_CONFIG_V2 = yaml.safe_load(SERVICE["spec"]["serveConfigV2"])
CLUSTER = SERVICE["spec"]["rayClusterConfig"]


def containers() -> list[dict]:
    groups = [CLUSTER["headGroupSpec"], *CLUSTER["workerGroupSpecs"]]
    return [c for group in groups for c in group["template"]["spec"]["containers"]]


def test_serve_config_v2_is_ray_config_yaml():
    assert SERVE_CONFIG_V2["applications"] == RAY_CONFIG["applications"], \
        "deploy/kuberay/rayservice.yaml serveConfigV2 differs from ray_config.yaml: copy the applications block"
    assert SERVE_CONFIG_V2["logging_config"] == RAY_CONFIG["logging_config"]
    http, local = SERVE_CONFIG_V2["http_options"], RAY_CONFIG["http_options"]
    # On Kubernetes only the bind differs: the pod's interface, for KubeRay's serve Service.
    assert {**http, "host": local["host"]} == local and http["host"] == "0.0.0.0"


def test_serve_config_v2_passes_check_config(tmp_path):
    path = tmp_path / "serve_config_v2.yaml"
    path.write_text(SERVICE["spec"]["serveConfigV2"])
    checked = check_config(path, {"TWILIO_AUTH_TOKEN": "t", "GATEWAY_PUBLIC_URL": "https://clara.example.com"},
                           check_store=False)
    assert checked.problems == []


def test_head_runs_nothing_workers_run_the_gateway_gcs_survives():
    head = CLUSTER["headGroupSpec"]["rayStartParams"]
    assert head["num-cpus"] == "0"
    assert CLUSTER["workerGroupSpecs"] and all(g["minReplicas"] >= 1 for g in CLUSTER["workerGroupSpecs"])
    fault_tolerance = CLUSTER["gcsFaultToleranceOptions"]
    assert fault_tolerance["redisAddress"]
    assert "secretKeyRef" in fault_tolerance["redisPassword"]["valueFrom"]
    assert CLUSTER["rayVersion"] == version("ray")
    assert CLUSTER["authOptions"] == {"mode": "token"}
    for params in [head, *(g["rayStartParams"] for g in CLUSTER["workerGroupSpecs"])]:
        assert params["metrics-export-port"] == "8080"


def test_secrets_come_from_secrets_and_the_store_is_dynamodb():
    [settings] = [doc for doc in MANIFEST if doc["kind"] == "ConfigMap"]
    assert settings["data"]["GATEWAY_STORE"].startswith("dynamodb://")
    assert settings["data"]["GATEWAY_PUBLIC_URL"].startswith("https://")
    secret_names = {"TWILIO_AUTH_TOKEN", "GATEWAY_ADMIN_TOKEN", "ANTHROPIC_API_KEY", "ELEVENLABS_WEBHOOK_SECRET"}
    assert not secret_names & set(settings["data"])
    for container in containers():
        env = {e["name"]: e for e in container["env"]}
        assert set(env) <= set(ENV.values()) | set(SERVE_MODE), set(env) - set(ENV.values())
        for name in secret_names:
            assert "secretKeyRef" in env[name]["valueFrom"], name
        for name, value in SERVE_MODE.items():
            assert env[name]["value"] == value  # the Serve configuration `gateway serve` uses


def test_dockerfile_installs_the_project_slim_and_non_root():
    dockerfile = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert stages and all("slim" in image for image in stages)
    final = dockerfile.rsplit("\nFROM ", 1)[1]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert f"pip install --no-index --find-links /wheels {project['project']['name']}" in final
    user = re.findall(r"^USER (\S+)", final, re.M)
    assert user and user[-1] not in ("root", "0")
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) \1$", dockerfile, re.M))
    assert copied == packages, "the image must copy exactly the packages pyproject installs"
    assert re.search(r'^CMD \["gateway", "serve"\]', final, re.M)


def test_every_pod_runs_the_image_of_this_version():
    image = "clara-gateway:" + tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert {c["image"] for c in containers()} == {image}


def test_the_shipped_configs_keep_the_ingress_on_its_replicas_own_loop():
    """A `ray_actor_options` in a Serve config replaces the code's whole, so the shipped files
    repeat gateway/app.py's INGRESS_ENV (user code on the replica's own event loop)."""
    from gateway.app import INGRESS_ENV

    for config in (RAY_CONFIG, SERVE_CONFIG_V2):
        [ingress] = [d for d in config["applications"][0]["deployments"] if d["name"] == "GatewayIngress"]
        assert ingress["ray_actor_options"]["runtime_env"]["env_vars"] == INGRESS_ENV


def test_the_shipped_configs_log_the_ingress_as_the_code_does():
    """A deployment's `logging_config` replaces the application's whole, so the shipped files
    repeat gateway/app.py's INGRESS_LOGGING (the proxy's access line, not a second one), and its
    encoding and level are the ones the files give everything else."""
    from gateway.app import INGRESS_LOGGING

    for config in (RAY_CONFIG, SERVE_CONFIG_V2):
        [ingress] = [d for d in config["applications"][0]["deployments"] if d["name"] == "GatewayIngress"]
        assert ingress["logging_config"] == INGRESS_LOGGING
        everything_else = config["logging_config"]
        assert {k: everything_else[k] for k in ("encoding", "log_level")} == \
            {k: INGRESS_LOGGING[k] for k in ("encoding", "log_level")}
