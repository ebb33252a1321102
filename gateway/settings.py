"""The gateway's one typed configuration, from two sources that never overlap.

* The environment (`ENV`: names are stable, operators and docs/configuration.md rely on them): endpoints,
  keys and tokens, which differ per deployment and never belong in a file in git -> `Settings`.
* ray_config.yaml's application `args:` -> `GatewayArgs`, which `gateway.app:build_app` takes:
  how the runtime is sized and timed. Unknown keys are refused at every level and ranges are
  checked, so a typo fails at `gateway check-config` instead of being silently ignored.

The actor runtime's RuntimeConfig (actors.config) is built from both: its endpoint fields come
from Settings only, its sizing fields from `args.runtime` only (`RuntimeSizing` is RuntimeConfig
without the endpoint fields).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator, model_validator

from actors.config import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL, RuntimeConfig
from gateway.errors import GatewayError
from gateway.sms.options import SmsOptions
from spine.conversation import DEFAULT_IDLE_RELEASE_S
from spine.store.url import DEFAULT_STORE_URL

# Settings field -> its environment variable.
ENV: dict[str, str] = {
    "store_url": "GATEWAY_STORE",
    "model": "GATEWAY_MODEL",
    "anthropic_api_key": "ANTHROPIC_API_KEY",
    "anthropic_base_url": "ANTHROPIC_BASE_URL",
    "anthropic_turn_model": "GATEWAY_TURN_MODEL",
    "anthropic_fast_model": "GATEWAY_FAST_MODEL",
    "twilio_auth_token": "TWILIO_AUTH_TOKEN",
    "twilio_account_sid": "TWILIO_ACCOUNT_SID",
    "twilio_api_base": "TWILIO_API_BASE",
    "public_url": "GATEWAY_PUBLIC_URL",
    "elevenlabs_api_key": "ELEVENLABS_API_KEY",
    "elevenlabs_agent_id": "ELEVENLABS_AGENT_ID",
    "elevenlabs_ws_url": "ELEVENLABS_WS_URL",
    "elevenlabs_api_base": "ELEVENLABS_API_BASE",
    "elevenlabs_webhook_secret": "ELEVENLABS_WEBHOOK_SECRET",
    "voice_token": "GATEWAY_VOICE_TOKEN",
    "admin_token": "GATEWAY_ADMIN_TOKEN",
    "metrics_port": "GATEWAY_METRICS_PORT",
    "mailgun_signing_key": "MAILGUN_SIGNING_KEY",
    "mailgun_api_key": "MAILGUN_API_KEY",
    "mailgun_domain": "MAILGUN_DOMAIN",
    "mailgun_api_base": "MAILGUN_API_BASE",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "telegram_api_base": "TELEGRAM_API_BASE",
    "buildium_client_id": "BUILDIUM_CLIENT_ID",
    "buildium_client_secret": "BUILDIUM_CLIENT_SECRET",
    "buildium_api_base": "BUILDIUM_API_BASE",
    "buildium_webhook_secret": "BUILDIUM_WEBHOOK_SECRET",
    "buildium_organization": "BUILDIUM_ORGANIZATION",
}


class ConfigError(GatewayError, ValueError):
    """A configuration the gateway refuses; `lines` has one line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines


def error_lines(exc: ValidationError, where: str, names: Mapping[str, str] | None = None) -> list[str]:
    """One line per pydantic error: where it is, what is wrong, what was given."""
    lines = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        if names and loc and loc[0] in names:
            place = names[loc[0]]  # an environment variable, named as the operator set it
        else:
            place = ".".join([where, *loc]) if where else ".".join(loc)
        given = error.get("input")
        shown = "" if error["type"] in ("missing", "extra_forbidden") or isinstance(given, dict) else f" (got {given!r})"
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        lines.append(f"{place}: {message}{shown}")
    return lines


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    store_url: str = DEFAULT_STORE_URL
    model: Literal["anthropic", "offline"] = "offline"
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_turn_model: str = DEFAULT_TURN_MODEL
    anthropic_fast_model: str = DEFAULT_FAST_MODEL
    twilio_auth_token: str | None = None
    twilio_account_sid: str | None = None
    twilio_api_base: str = "https://api.twilio.com"
    public_url: str = "http://127.0.0.1:8000"
    elevenlabs_api_key: str | None = None
    elevenlabs_agent_id: str | None = None
    elevenlabs_ws_url: str | None = None
    elevenlabs_api_base: str = "https://api.elevenlabs.io"
    elevenlabs_webhook_secret: str | None = None
    voice_token: str | None = None
    admin_token: str | None = None
    mailgun_signing_key: str | None = None
    mailgun_api_key: str | None = None
    mailgun_domain: str | None = None
    mailgun_api_base: str = "https://api.mailgun.net"
    telegram_bot_token: str | None = None
    telegram_webhook_secret: str | None = None
    telegram_api_base: str = "https://api.telegram.org"
    # Buildium, the property-management system of record (docs/pms.md): unset client id, none of it runs.
    buildium_client_id: str | None = None
    buildium_client_secret: str | None = Field(default=None, repr=False)
    buildium_api_base: str = "https://api.buildium.com"
    buildium_webhook_secret: str | None = Field(default=None, repr=False)
    buildium_organization: str = "org_buildium"
    # Where Ray's metrics agent serves Prometheus text, the gateway's metrics among Ray's own.
    metrics_port: int = Field(default=8080, ge=1, le=65535)

    @field_validator("public_url", "mailgun_api_base", "telegram_api_base", "buildium_api_base")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """From the environment; an empty variable counts as unset. ConfigError, one line per bad value."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {field: env[name] for field, name in ENV.items() if env.get(name)}
        if "model" not in values and values.get("anthropic_api_key"):
            values["model"] = "anthropic"
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            raise ConfigError(error_lines(exc, "", ENV)) from exc


# RuntimeConfig's endpoint fields come from Settings (the environment), never from the yaml.
RUNTIME_FROM_ENV = frozenset(RuntimeConfig.model_fields) & frozenset(Settings.model_fields)

# RuntimeConfig's own fields (types, defaults, ranges), minus those, with unknown keys refused.
# A model built at import time, so the type checker reads it as RuntimeConfig (a superset).
if TYPE_CHECKING:
    RuntimeSizing = RuntimeConfig
else:
    RuntimeSizing = create_model(
        "RuntimeSizing",
        __config__=ConfigDict(extra="forbid"),
        **{name: (field.annotation, field) for name, field in RuntimeConfig.model_fields.items()
           if name not in RUNTIME_FROM_ENV},
    )


def sizing_only(cls: type[BaseModel], value: Any) -> Any:
    """A `runtime` validator: the endpoint fields of RuntimeConfig come from the environment."""
    misplaced = sorted(set(value) & RUNTIME_FROM_ENV) if isinstance(value, dict) else []
    if misplaced:
        names = ", ".join(f"{name} ({ENV[name]})" for name in misplaced)
        raise ValueError(f"{names} come from the environment, not ray_config.yaml")
    return value


class TakeoverOptions(BaseModel):
    """`args.takeover`: staff taking a conversation over in the console (desk.console.takeover)."""

    model_config = ConfigDict(extra="forbid")
    # Staff silent this long: the conversation goes back to Clara (Chatwoot's auto-resolve, per person).
    idle_release_s: float = Field(default=DEFAULT_IDLE_RELEASE_S, ge=1.0, le=7 * 86400.0)


class DispatchOptions(BaseModel):
    """`args.dispatch`: vendor dispatch (desk.dispatch.dispatch)."""

    model_config = ConfigDict(extra="forbid")
    # A dispatch nobody accepted this long after it was sent: the property's managers are told
    # (once; the paging scheduler's tick runs desk.dispatch.dispatch.due_dispatch_reminders).
    accept_within_s: int = Field(default=3600, ge=60, le=7 * 24 * 3600)


class BuildiumOptions(BaseModel):
    """`args.buildium`: the Buildium connector (docs/pms.md); nothing runs without BUILDIUM_CLIENT_ID."""

    model_config = ConfigDict(extra="forbid")
    # The incremental poll's period: the safety net for webhooks Buildium gave up delivering.
    poll_s: int = Field(default=300, ge=30, le=24 * 3600)


class GatewayArgs(BaseModel):
    """The application `args:` of ray_config.yaml, consumed by `gateway.app:build_app`."""

    model_config = ConfigDict(extra="forbid")

    runtime: RuntimeSizing = Field(default_factory=RuntimeSizing)
    sms: SmsOptions = Field(default_factory=SmsOptions)
    takeover: TakeoverOptions = Field(default_factory=TakeoverOptions)
    dispatch: DispatchOptions = Field(default_factory=DispatchOptions)
    buildium: BuildiumOptions = Field(default_factory=BuildiumOptions)
    # Settings as environment names (GATEWAY_STORE, TWILIO_AUTH_TOKEN, ...) laid over the
    # replica's own environment: the demo and tests configure replicas of a running Ray this way.
    env: dict[str, str] = Field(default_factory=dict)

    _sizing_only = field_validator("runtime", mode="before")(sizing_only)

    @field_validator("env")
    @classmethod
    def _known_names(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - set(ENV.values()))
        if unknown:
            raise ValueError(f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(ENV.values()))}")
        return value

    @model_validator(mode="after")
    def _budgets_fit(self) -> GatewayArgs:
        """Budgets that only make sense together (each alone is range-checked by its field)."""
        runtime, sms = self.runtime, self.sms
        if runtime.max_rounds < 1:
            raise ValueError(f"runtime.max_rounds must be at least 1 (got {runtime.max_rounds})")
        if not 0 < runtime.model_call_s <= runtime.turn_total_s:
            raise ValueError(f"runtime.model_call_s ({runtime.model_call_s}) must be above 0 and at most "
                             f"runtime.turn_total_s ({runtime.turn_total_s})")
        if sms.abandoned_after_s <= sms.inline_budget_s + runtime.turn_total_s:
            raise ValueError(f"sms.abandoned_after_s ({sms.abandoned_after_s}) must outlast a whole turn "
                             f"(sms.inline_budget_s + runtime.turn_total_s = {sms.inline_budget_s + runtime.turn_total_s})")
        return self

    def settings(self) -> Settings:
        return Settings.from_env({**os.environ, **self.env})

    def runtime_config(self, settings: Settings | None = None) -> RuntimeConfig:
        return RuntimeConfig.from_settings(settings or self.settings(), self.runtime.model_dump())

    def to_args(self) -> dict[str, Any]:
        """As `args:` for `GatewayIngress.bind` (JSON-safe, what model_validate reads back)."""
        return self.model_dump(mode="json")
