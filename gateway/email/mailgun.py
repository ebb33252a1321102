"""A small client for Mailgun's messages API over httpx:
`POST {MAILGUN_API_BASE}/v3/{MAILGUN_DOMAIN}/messages`, HTTP basic auth ("api", MAILGUN_API_KEY),
form fields from/to/subject/text and `h:<Header>` for extra headers (In-Reply-To, References);
200 with `{"id": "<...>", "message": "Queued. Thank you."}`."""
from __future__ import annotations

import httpx

from gateway.http_retry import post_unless_created


class MailgunError(Exception):
    """Mailgun refused the send or could not be reached."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class MailgunMessages:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, domain: str, api_key: str,
                 backoff_s: float = 0.5) -> None:
        self._http = http
        self._url = f"{api_base.rstrip('/')}/v3/{domain}/messages"
        self._auth = httpx.BasicAuth("api", api_key)
        self._backoff_s = backoff_s

    async def send(self, *, from_: str, to: str, subject: str, text: str,
                   headers: dict[str, str] | None = None) -> str:
        """Queue one plain-text message; Mailgun's message id."""
        form = {"from": from_, "to": to, "subject": subject, "text": text}
        form.update({f"h:{name}": value for name, value in (headers or {}).items()})
        try:
            response = await post_unless_created(self._http, self._url, backoff_s=self._backoff_s, data=form,
                                                 auth=self._auth)
        except httpx.ConnectError as exc:
            raise MailgunError(f"cannot reach Mailgun at {self._url}: {exc}") from exc
        except httpx.HTTPError as exc:
            raise MailgunError(f"Mailgun request failed: {type(exc).__name__}: {exc}") from exc
        return _message_id(response)


def _message_id(response: httpx.Response) -> str:
    try:
        payload = response.json()
    except ValueError:
        payload = {}
    if response.status_code != 200 or not isinstance(payload, dict) or not payload.get("id"):
        message = payload.get("message") if isinstance(payload, dict) else None
        raise MailgunError(f"Mailgun answered {response.status_code}: {message or response.text[:200]}",
                           status=response.status_code)
    return str(payload["id"])
