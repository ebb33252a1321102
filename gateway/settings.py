"""Settings from the environment. Names are stable: operators and the README rely on them."""
from __future__ import annotations

import os

from pydantic import BaseModel

from spine.store.url import DEFAULT_STORE_URL


class Settings(BaseModel):
    store_url: str = DEFAULT_STORE_URL
    model: str = "offline"  # anthropic | offline
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_turn_model: str = "claude-sonnet-4-6"
    anthropic_fast_model: str = "claude-haiku-4-5"
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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Settings":
        env = dict(os.environ if env is None else env)
        key = env.get("ANTHROPIC_API_KEY") or None
        return cls(
            store_url=env.get("GATEWAY_STORE", DEFAULT_STORE_URL),
            model=env.get("GATEWAY_MODEL") or ("anthropic" if key else "offline"),
            anthropic_api_key=key,
            anthropic_base_url=env.get("ANTHROPIC_BASE_URL") or None,
            anthropic_turn_model=env.get("GATEWAY_TURN_MODEL", "claude-sonnet-4-6"),
            anthropic_fast_model=env.get("GATEWAY_FAST_MODEL", "claude-haiku-4-5"),
            twilio_auth_token=env.get("TWILIO_AUTH_TOKEN") or None,
            twilio_account_sid=env.get("TWILIO_ACCOUNT_SID") or None,
            twilio_api_base=env.get("TWILIO_API_BASE", "https://api.twilio.com"),
            public_url=env.get("GATEWAY_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/"),
            elevenlabs_api_key=env.get("ELEVENLABS_API_KEY") or None,
            elevenlabs_agent_id=env.get("ELEVENLABS_AGENT_ID") or None,
            elevenlabs_ws_url=env.get("ELEVENLABS_WS_URL") or None,
            elevenlabs_api_base=env.get("ELEVENLABS_API_BASE", "https://api.elevenlabs.io"),
            elevenlabs_webhook_secret=env.get("ELEVENLABS_WEBHOOK_SECRET") or None,
            voice_token=env.get("GATEWAY_VOICE_TOKEN") or None,
            admin_token=env.get("GATEWAY_ADMIN_TOKEN") or None,
            mailgun_signing_key=env.get("MAILGUN_SIGNING_KEY") or None,
            mailgun_api_key=env.get("MAILGUN_API_KEY") or None,
            mailgun_domain=env.get("MAILGUN_DOMAIN") or None,
            mailgun_api_base=(env.get("MAILGUN_API_BASE") or "https://api.mailgun.net").rstrip("/"),
            telegram_bot_token=env.get("TELEGRAM_BOT_TOKEN") or None,
            telegram_webhook_secret=env.get("TELEGRAM_WEBHOOK_SECRET") or None,
            telegram_api_base=(env.get("TELEGRAM_API_BASE") or "https://api.telegram.org").rstrip("/"),
        )
