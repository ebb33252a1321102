"""X-Twilio-Signature: checked and computed with the twilio library's RequestValidator over
the full public URL Twilio called (GATEWAY_PUBLIC_URL + path + query) and the form params.

A valid signature is not enough on its own: the signed string has no separators, so a signed form
can be re-cut into another; `gateway.twilio.params.check_form` refuses what Twilio never
sends. A media-stream websocket upgrade is signed over the stream URL with no parameters."""
from __future__ import annotations

from collections.abc import Mapping

from twilio.request_validator import RequestValidator, get_signature_algorithm

SIGNATURE_HEADER = "X-Twilio-Signature"
SETTINGS_HEADER = "X-Twilio-Webhooks-Signature-Settings"
IDEMPOTENCY_HEADER = "I-Twilio-Idempotency-Token"  # the same on each of Twilio's retries of one webhook
MAX_SIGNATURE_CHARS = 128  # base64 of an HMAC-SHA256 is 44; anything far longer is not Twilio's


def public_url(base: str, path: str, query: str = "") -> str:
    """The URL as Twilio was told to call it: behind a tunnel or proxy the request's own
    host differs, so the configured public base is what was signed."""
    url = base.rstrip("/") + path
    return f"{url}?{query}" if query else url


def signature_valid(auth_token: str | None, url: str, params: Mapping[str, str],
                    signature: str | None, settings_header: str | None = None) -> bool:
    """False when there is no token, no signature, or they do not match (never raises)."""
    if not auth_token or not signature or len(signature) > MAX_SIGNATURE_CHARS or not signature.isascii():
        return False
    algorithm = get_signature_algorithm(settings_header)
    return RequestValidator(auth_token).validate(url, _by_name(params), signature, algorithm)


class _ValuesByName(dict[str, list[str]]):
    """A form's values under each name, as the twilio validator reads them (`getall`, the
    aiohttp MultiDict spelling). Handing it a starlette form instead costs a scan of every
    field for each field, twice a request (with and without the port): ~0.1 ms a webhook."""

    def getall(self, name: str) -> list[str]:
        return self[name]


def _by_name(params: Mapping[str, str]) -> _ValuesByName:
    grouped = _ValuesByName()
    multi_items = getattr(params, "multi_items", None)  # a repeated name keeps all its values
    for name, value in multi_items() if multi_items is not None else params.items():
        grouped.setdefault(name, []).append(value)
    return grouped


def sign(auth_token: str, url: str, params: Mapping[str, str]) -> str:
    """What Twilio would put in X-Twilio-Signature (the CLI, demo and tests sign with it)."""
    return RequestValidator(auth_token).compute_signature(url, _by_name(params))
