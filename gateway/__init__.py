"""The gateway: Ray Serve ingress, channel adapters (Twilio SMS, ElevenLabs voice), settings,
admin API and the `gateway` CLI. No business rules live here."""
from gateway.errors import GatewayError, InboundNotAccepted, MalformedInput, ProviderError, WebhookRejected
from gateway.settings import ConfigError, GatewayArgs, Settings

__all__ = [
    "ConfigError",
    "GatewayArgs",
    "GatewayError",
    "InboundNotAccepted",
    "MalformedInput",
    "ProviderError",
    "Settings",
    "WebhookRejected",
]
