"""A small client for Mailgun's messages API over httpx:
`POST {MAILGUN_API_BASE}/v3/{MAILGUN_DOMAIN}/messages`, HTTP basic auth ("api", MAILGUN_API_KEY),
form fields from/to/subject/text and `h:<Header>` for extra headers (In-Reply-To, References);
200 with `{"id": "<...>", "message": "Queued. Thank you."}`."""
from __future__ import annotations

import httpx

from gateway.errors import ProviderError
from gateway.http_retry import FormSender


class MailgunError(ProviderError):
    """Mailgun refused the send or could not be reached."""


class MailgunMessages:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, domain: str, api_key: str,
                 backoff_s: float = 0.5) -> None:
        self._sender = FormSender(http, f"{api_base.rstrip('/')}/v3/{domain}/messages", httpx.BasicAuth("api", api_key),
                                  provider="Mailgun", error=MailgunError, backoff_s=backoff_s)

    async def send(self, *, from_: str, to: str, subject: str, text: str,
                   headers: dict[str, str] | None = None) -> str:
        """Queue one plain-text message; Mailgun's message id."""
        form = {"from": from_, "to": to, "subject": subject, "text": text}
        form.update({f"h:{name}": value for name, value in (headers or {}).items()})
        response, payload = await self._sender.post(form)
        if response.status_code != 200 or not payload.get("id"):
            raise MailgunError(f"Mailgun answered {response.status_code}: {payload.get('message') or response.text[:200]}",
                               status=response.status_code)
        return str(payload["id"])
