"""ray_config.yaml is a valid Serve config whose args the gateway's builder accepts (no Ray)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError
from ray.serve.schema import ServeDeploySchema

from actors.config import RuntimeConfig
from gateway.app import GatewayIngress, IngressUserConfig, build_app
from gateway.settings import GatewayArgs

CONFIG = Path(__file__).resolve().parents[2] / "ray_config.yaml"


@pytest.fixture(scope="module")
def config() -> ServeDeploySchema:
    return ServeDeploySchema.model_validate(yaml.safe_load(CONFIG.read_text()))


def test_serve_options_are_loopback_and_outlast_twilio(config):
    assert (config.http_options.host, config.http_options.port) == ("127.0.0.1", 8000)
    assert config.http_options.request_timeout_s > 15  # never cut a webhook off before Twilio does


def test_the_application_builds_the_gateway_ingress(config):
    [app] = config.applications
    assert app.import_path == "gateway.app:build_app" and app.route_prefix == "/"
    [ingress] = app.deployments
    assert ingress.name == GatewayIngress.name
    assert ingress.autoscaling_config["max_replicas"] >= ingress.autoscaling_config["min_replicas"] >= 1
    args = GatewayArgs.model_validate(app.args)
    runtime = RuntimeConfig.model_validate(IngressUserConfig.model_validate(ingress.user_config).runtime)
    assert runtime.hosts >= 1 and runtime.idle_deactivate_s > 0
    assert runtime.host_dead_after_s < 10  # a lost host's people are served again well within 10 s
    assert 0 < args.sms.inline_budget_s < 15
    assert build_app(app.args) is not None


def test_a_misspelt_arg_fails_at_build_time():
    with pytest.raises(ValidationError, match="sms_budget"):
        build_app({"sms_budget": 3})
    with pytest.raises(ValidationError, match="inline_budget_s"):
        build_app({"sms": {"inline_budget_s": 20}})  # past Twilio's 15 s: never inline
    with pytest.raises(ValidationError, match="hosts"):
        build_app({"runtime": {"hosts": 0}})
    with pytest.raises(ValidationError, match="host_count"):
        build_app({"runtime": {"host_count": 3}})  # unknown runtime keys are refused, not ignored


def test_the_runtime_is_the_live_user_config_and_a_misspelt_key_is_refused():
    app = build_app({"runtime": {"hosts": 3}})
    assert app._bound_deployment._deployment_config.user_config == {"runtime": {"hosts": 3}}
    with pytest.raises(ValidationError, match="runtme"):
        IngressUserConfig.model_validate({"runtme": {"hosts": 3}})

