"""`gateway check-config`: is this ray_config.yaml and this environment a gateway that will work?

One line per problem, each naming where it is (a yaml path or an environment variable) and what
is wrong, instead of a pydantic traceback inside a Ray retry loop. `gateway serve` runs the same
check before it starts anything. Checks, in order: the file parses; every key at every level is
one Serve or the gateway knows (Ray's own schema accepts unknown keys silently); Serve's schema;
the gateway's args (`GatewayArgs`, what build_app takes); the settings in the environment; then
the store answers (read-only: checking never creates a database or a table).
"""
from __future__ import annotations

import asyncio
import ipaddress
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

import spine.keys as keys
from gateway.settings import ConfigError, GatewayArgs, RuntimeSizing, Settings, error_lines, sizing_only
from gateway.telegram.secret import secret_problem
from spine.store import StoreError
from spine.store.url import open_store, parse_store_url

if TYPE_CHECKING:  # ray.serve.schema is imported when a config is checked, not with this module
    from ray.serve.schema import HTTPOptionsSchema, ServeApplicationSchema, ServeDeploySchema

BUILDER = "gateway.app:build_app"
INGRESS = "GatewayIngress"


@dataclass
class CheckedConfig:
    path: Path
    problems: list[str] = field(default_factory=list)  # the gateway would not work: refuse to start
    warnings: list[str] = field(default_factory=list)  # it would work, perhaps not as meant
    serve: ServeDeploySchema | None = None
    app: ServeApplicationSchema | None = None  # the gateway's application in `serve`
    args: GatewayArgs | None = None
    settings: Settings | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def unknown_keys(model: type[BaseModel], data: Any, where: str) -> list[str]:
    """Keys `model` does not define, at every nesting level it types as a model."""
    if not isinstance(data, dict):
        return []
    fields = model.model_fields
    known = set(fields) | {f.alias for f in fields.values() if f.alias}
    lines = [f"{where}.{key}: unknown key" for key in data if key not in known]
    for name, info in fields.items():
        value = data.get(info.alias or name, data.get(name))
        for inner in _models_in(info.annotation):
            if isinstance(value, dict):
                lines += unknown_keys(inner, value, f"{where}.{name}")
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    label = item.get("name", i) if isinstance(item, dict) else i
                    lines += unknown_keys(inner, item, f"{where}.{name}[{label}]")
    return lines


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def check_config(path: Path, env: Mapping[str, str], *, check_store: bool = True) -> CheckedConfig:
    checked = CheckedConfig(path=path)
    raw = _load_yaml(checked)
    if raw is not None and _check_serve(checked, raw):
        assert checked.app is not None  # _check_serve found the gateway's application
        _check_args(checked, checked.app)
    _check_environment(checked, env)
    if check_store and checked.settings is not None:
        asyncio.run(_check_store(checked))
    return checked


def _load_yaml(checked: CheckedConfig) -> dict | None:
    try:
        raw = yaml.safe_load(checked.path.read_text())
    except OSError as exc:
        checked.problems.append(f"{checked.path}: cannot read: {exc.strerror}")
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark else ""
        checked.problems.append(f"{checked.path.name}: not valid YAML{at}: {getattr(exc, 'problem', exc)}")
        return None
    if not isinstance(raw, dict):
        checked.problems.append(f"{checked.path.name}: expected a mapping (a Serve config), got {type(raw).__name__}")
        return None
    return raw


def _check_serve(checked: CheckedConfig, raw: dict) -> bool:
    from ray.serve.schema import ServeDeploySchema

    where = checked.path.name
    checked.problems += unknown_keys(ServeDeploySchema, raw, where)
    try:
        checked.serve = ServeDeploySchema.model_validate(raw)
    except ValidationError as exc:
        checked.problems += error_lines(exc, where)
        return False
    apps = [app for app in checked.serve.applications if app.import_path == BUILDER]
    if len(apps) != 1:
        checked.problems.append(f"{where}.applications: expected one application with import_path {BUILDER}, "
                                f"found {len(apps)}")
        return False
    checked.app = apps[0]
    for deployment in checked.app.deployments:
        place = f"{where}.applications[{checked.app.name}].deployments[{deployment.name}]"
        if deployment.name != INGRESS:
            checked.problems.append(f"{place}: no such deployment (the gateway has one: {INGRESS})")
        elif deployment.user_config is not None:
            try:  # the runtime the replicas get (live on `serve deploy`): sizing only, strict
                IngressUserConfigCheck.model_validate(deployment.user_config)
            except ValidationError as exc:
                checked.problems += error_lines(exc, f"{place}.user_config")
    return True


class IngressUserConfigCheck(BaseModel):
    """GatewayIngress's user_config as check-config reads it: its runtime is RuntimeConfig's
    sizing (RuntimeSizing), endpoints refused as in args.runtime."""

    model_config = ConfigDict(extra="forbid")
    runtime: RuntimeSizing = Field(default_factory=RuntimeSizing)

    _sizing_only = field_validator("runtime", mode="before")(sizing_only)


def _check_args(checked: CheckedConfig, app: ServeApplicationSchema) -> None:
    where = f"{checked.path.name}.applications[{app.name}].args"
    try:
        checked.args = GatewayArgs.model_validate(app.args)
    except ValidationError as exc:
        checked.problems += error_lines(exc, where)


def _check_environment(checked: CheckedConfig, env: Mapping[str, str]) -> None:
    overlay = checked.args.env if checked.args else {}
    try:
        settings = checked.settings = Settings.from_env({**env, **overlay})
    except ConfigError as exc:
        checked.problems += exc.lines
        return
    try:
        parse_store_url(settings.store_url)
    except StoreError as exc:
        checked.problems.append(str(exc))  # it names GATEWAY_STORE
    if settings.model == "anthropic" and not settings.anthropic_api_key:
        checked.problems.append("GATEWAY_MODEL: anthropic needs ANTHROPIC_API_KEY (unset GATEWAY_MODEL for the offline model)")
    if not settings.twilio_auth_token:
        checked.problems.append("TWILIO_AUTH_TOKEN: not set, so no Twilio signature can be checked and every "
                                "/sms/twilio request would be refused (403)")
    elif not settings.twilio_account_sid:
        checked.warnings.append("TWILIO_ACCOUNT_SID: not set, so replies that miss the inline budget wait in the "
                                "outbox instead of going out through Twilio's REST API")
    if not settings.admin_token:
        checked.warnings.append("GATEWAY_ADMIN_TOKEN: not set, so every /admin route answers 401")
    checked.problems += _public_url_problems(settings.public_url)
    telegram_secret = secret_problem(settings.telegram_webhook_secret)
    checked.problems += [telegram_secret] if telegram_secret else []
    if checked.serve is not None:
        _check_bind(checked, checked.serve.http_options, settings)


def _public_url_problems(url: str) -> list[str]:
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return [f"GATEWAY_PUBLIC_URL: not an absolute http(s) URL (got {url!r})"]
    if parsed.query or parsed.fragment:
        return [f"GATEWAY_PUBLIC_URL: must not carry a query or fragment (got {url!r})"]
    if parsed.scheme != "https" and not is_loopback(parsed.hostname):
        return [f"GATEWAY_PUBLIC_URL: {url} is public but not https (Twilio and ElevenLabs need https; "
                "terminate TLS in front of Serve and set the https URL callers use)"]
    return []


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_bind(checked: CheckedConfig, http: HTTPOptionsSchema, settings: Settings) -> None:
    public = urlparse(settings.public_url)
    if public.hostname and is_loopback(public.hostname) and (public.port or 80) != http.port:
        checked.warnings.append(f"GATEWAY_PUBLIC_URL: {settings.public_url} is local but Serve listens on port "
                                f"{http.port}; Twilio signatures are checked against the public URL")
    if settings.metrics_port == http.port:
        checked.problems.append(f"GATEWAY_METRICS_PORT: {settings.metrics_port} is Serve's HTTP port too")


def _no_sqlite_file(checked: CheckedConfig, path: str) -> bool:
    """True when the SQLite file does not exist yet (a warning, or a problem if its folder is missing too)."""
    if Path(path).expanduser().is_file():
        return False
    folder = Path(path).expanduser().resolve().parent
    if folder.is_dir():
        checked.warnings.append(f"GATEWAY_STORE: no database yet at {Path(path).resolve()} "
                                "(`gateway seed` or `gateway serve --seed` creates it)")
    else:
        checked.problems.append(f"GATEWAY_STORE: the folder {folder} does not exist (create it, or fix the URL)")
    return True


async def _check_store(checked: CheckedConfig) -> None:
    assert checked.settings is not None
    url = checked.settings.store_url
    try:
        where = parse_store_url(url)
    except StoreError:
        return  # already reported
    if where.kind == "sqlite" and where.path != ":memory:" and _no_sqlite_file(checked, where.path):
        return
    # The bound the replicas themselves will use to reach the store.
    timeout_s = checked.args.runtime.store_timeout_s if checked.args else 5.0
    try:
        store = open_store(url, timeout_s=timeout_s, read_only=True)
        try:
            await store.get(keys.HEALTH_CHECK)
        finally:
            await store.close()
    except StoreError as exc:
        checked.problems.append(str(exc))  # it names GATEWAY_STORE
