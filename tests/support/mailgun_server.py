"""A local stand-in for Mailgun, for tests and the demo: the messages API, and a sender of signed
inbound route POSTs.

`POST /v3/{domain}/messages` with HTTP basic auth ("api", key) and form fields from, to, subject,
text, h:<Header> answers 200 `{"id": "<...@domain>", "message": "Queued. Thank you."}`, or
Mailgun's error JSON `{"message": ...}`: 401 "Forbidden" for bad auth, 404 for a domain not
ours, 400 for a missing from/to/subject/text, or a scripted failure. Every request is recorded.
`post_route(...)` posts a message to a gateway the way a `forward()` route does: the form
`gateway.email.route_form` builds, signed with the signing key.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field

import httpx
from aiohttp import web

from gateway.email.route_form import route_form
from tests.support.threaded_server import RecordingServer, basic_auth, form_of


@dataclass
class SentEmail:
    domain: str
    form: dict[str, str]
    status: int
    id: str | None = None
    at: float = field(default_factory=time.monotonic)

    def header(self, name: str) -> str | None:
        return self.form.get(f"h:{name}")


class MailgunStandIn(RecordingServer):
    name = "Mailgun stand-in"

    def __init__(self, domain: str = "clara.example", api_key: str = "test-mailgun-key",
                 signing_key: str = "test-mailgun-signing-key") -> None:
        super().__init__()
        self.domain, self.api_key, self.signing_key = domain, api_key, signing_key
        self._failures: list[int] = []

    @property
    def sent(self) -> list[SentEmail]:
        """Every request to the messages endpoint, in order."""
        return self.requests.items

    def fail_next(self, status: int = 500) -> None:
        self._failures.append(status)

    def delivered(self, record: SentEmail) -> bool:
        return record.status == 200  # queued

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v3/{domain}/messages", self._messages)

    async def _messages(self, request: web.Request) -> web.Response:
        domain = request.match_info["domain"]
        form = await form_of(request)
        record = SentEmail(domain=domain, form=form, status=0)
        return self.answered(record, self._answer(request, domain, form, record))

    def _answer(self, request: web.Request, domain: str, form: dict[str, str], record: SentEmail) -> web.Response:
        if basic_auth(request) != ("api", self.api_key):
            return web.Response(status=401, text="Forbidden")
        if domain != self.domain:
            return web.json_response({"message": f"Domain not found: {domain}"}, status=404)
        for name in ("from", "to", "subject"):
            if not form.get(name):
                return web.json_response({"message": f"'{name}' parameter is missing"}, status=400)
        if not (form.get("text") or form.get("html")):
            return web.json_response({"message": "Need at least one of 'text', 'html' or 'template' parameters specified"},
                                     status=400)
        if self._failures:
            status = self._failures.pop(0)
            return web.json_response({"message": "scripted failure"}, status=status)
        record.id = f"<{time.strftime('%Y%m%d%H%M%S')}.{uuid.uuid4().hex[:16]}@{self.domain}>"
        return web.json_response({"id": record.id, "message": "Queued. Thank you."})


async def post_route(http: httpx.AsyncClient, gateway_url: str, *, signing_key: str, **message) -> httpx.Response:
    """POST one inbound message to the gateway's /email/inbound as a Mailgun route would."""
    return await http.post(gateway_url.rstrip("/") + "/email/inbound", data=route_form(signing_key=signing_key, **message))
