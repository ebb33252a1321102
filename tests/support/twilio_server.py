"""A local stand-in for Twilio's Messages and Calls REST APIs, for tests, the demo and benches.

`POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP basic auth (AccountSid,
AuthToken) and form fields To, From, Body, StatusCallback answers 201 with the Message resource
JSON Twilio returns (sid "SM" + 32 hex, status "queued", RFC 2822 dates, uri, ...), or Twilio's
error JSON (`code`, `message`, `more_info`, `status`) for bad auth (20003), a missing To (21604),
From (21603) or Body (21602), a body over 1600 characters (21617), an opted-out recipient (21610)
or a scripted failure. Every request is recorded. With `callbacks=True`, it then posts the
StatusCallback ("sent", then "delivered", or the statuses given), signed with X-Twilio-Signature as Twilio signs them.
`POST /2010-04-01/Accounts/{AccountSid}/Calls.json` (To, From, Url, Method, Timeout) answers 201
with the Call resource (sid "CA" + 32 hex, status "queued"), or 21201 (no To), 21213 (no From),
21205 (no Url); calls are recorded in `calls`. `answer(call, ...)` then does what Twilio does when
the callee picks up: it posts the signed voice webhook to the call's Url (and, given digits, to the
<Gather> action the TwiML names) and returns the TwiML.
`GET .../Messages.json` and `GET .../Calls.json` list what was created, with Twilio's filters
(To, From, DateSent / StartTime and their ranges: tests.support.twilio_list_helpers).
Runs on 127.0.0.1, a free port, in its own thread and event loop.
"""
from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
from aiohttp import web
from twilio.request_validator import RequestValidator

from tests.support.threaded_server import Recording, RecordingServer, basic_auth, form_of
from tests.support.twilio_list_helpers import list_page, matching, rfc2822

MAX_BODY_CHARS = 1600


@dataclass
class Sent:
    """One request to the Messages endpoint, as received."""

    account_sid: str
    form: dict[str, str]
    status: int
    sid: str | None = None
    at: float = field(default_factory=time.monotonic)
    created: datetime = field(default_factory=lambda: datetime.now(UTC))  # Twilio's date_created

    @property
    def to(self) -> str:
        return self.form.get("To", "")

    @property
    def body(self) -> str:
        return self.form.get("Body", "")


@dataclass
class Failure:
    status: int
    code: int
    message: str


@dataclass
class Callback:
    url: str
    form: dict[str, str]
    status: int | None = None


def _gather_action(twiml: str) -> str:
    import html
    import re

    match = re.search(r'<Gather[^>]*action="([^"]+)"', twiml)
    if match is None:
        raise AssertionError(f"the TwiML gathers no digits: {twiml}")
    return html.unescape(match.group(1))


async def _http_post(url: str, form: dict[str, str], headers: dict[str, str]) -> str:
    async with aiohttp.ClientSession() as session, session.post(url, data=form, headers=headers) as response:
        return await response.text()


def _error(status: int, code: int, message: str) -> web.Response:
    return web.json_response({"code": code, "message": message, "status": status,
                              "more_info": f"https://www.twilio.com/docs/errors/{code}"}, status=status)


class TwilioStandIn(RecordingServer):
    name = "Twilio stand-in"

    def __init__(self, account_sid: str = "AC" + "0" * 31 + "1", auth_token: str = "test-twilio-token",
                 *, callbacks: bool = False, callback_statuses: tuple[str, ...] = ("sent", "delivered"),
                 callback_error_code: str | None = None) -> None:
        super().__init__()
        self.account_sid = account_sid
        self.auth_token = auth_token
        self.callbacks = callbacks
        self.callback_statuses = callback_statuses
        self.callback_error_code = callback_error_code
        self.opted_out: set[str] = set()
        self.callback_posts = Recording()  # of Callback
        self.call_requests = Recording()  # of Sent, one per request to the Calls endpoint
        self.call_updates = Recording()  # of Sent, one per update of a live call (form has CallSid)
        self._update_failures: list[Failure] = []
        self._failures: list[Failure] = []
        self._callback_tasks: set[asyncio.Future[None]] = set()

    @property
    def sent(self) -> list[Sent]:
        """Every request to the Messages endpoint, in order."""
        return self.requests.items

    @property
    def callbacks_posted(self) -> list[Callback]:
        return self.callback_posts.items

    def fail_next(self, status: int = 500, code: int = 20500, message: str = "Internal Server Error") -> None:
        self._failures.append(Failure(status, code, message))

    def fail_next_update(self, status: int = 404, code: int = 20404, message: str = "The requested resource was "
                         "not found") -> None:
        self._update_failures.append(Failure(status, code, message))

    def delivered(self, record: Sent) -> bool:
        return record.status == 201  # a message created

    def accepted(self) -> list[Sent]:
        """Requests that created a message (201)."""
        return [s for s in self.sent if self.delivered(s)]

    @property
    def calls(self) -> list[Sent]:
        """Every request to the Calls endpoint that placed a call (201), in order."""
        return [c for c in self.call_requests.items if c.status == 201]

    def wait_for_calls(self, count: int, timeout_s: float = 20.0) -> list[Sent]:
        return self.call_requests.wait_for(count, lambda c: c.status == 201, timeout_s)

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/2010-04-01/Accounts/{account_sid}/Messages.json", self._create)
        app.router.add_post("/2010-04-01/Accounts/{account_sid}/Calls.json", self._create_call)
        app.router.add_post("/2010-04-01/Accounts/{account_sid}/Calls/{call_sid}.json", self._update_call)
        app.router.add_get("/2010-04-01/Accounts/{account_sid}/Messages.json", self._list_messages)
        app.router.add_get("/2010-04-01/Accounts/{account_sid}/Calls.json", self._list_calls)

    def _authorized(self, request: web.Request) -> bool:
        return basic_auth(request) == (self.account_sid, self.auth_token) \
            and request.match_info["account_sid"] == self.account_sid

    async def _list_messages(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return _error(401, 20003, "Authenticate")
        found = matching(self.accepted(), dict(request.query), "DateSent", lambda r: r.created)
        return list_page(request, "messages", [{**self._message(r), "status": "sent",
                                                "date_sent": rfc2822(r.created)} for r in found])

    async def _list_calls(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return _error(401, 20003, "Authenticate")
        found = matching(self.calls, dict(request.query), "StartTime", lambda r: r.created)
        return list_page(request, "calls", [{**self._call(r), "start_time": rfc2822(r.created)} for r in found])

    async def _create_call(self, request: web.Request) -> web.Response:
        account_sid = request.match_info["account_sid"]
        form = await form_of(request)
        record = Sent(account_sid=account_sid, form=form, status=0)
        self.call_requests.add(record)
        response = self._call_answer(request, account_sid, form, record)
        record.status = response.status
        return response

    def _call_answer(self, request: web.Request, account_sid: str, form: dict[str, str], record: Sent) -> web.Response:
        if basic_auth(request) != (self.account_sid, self.auth_token) or account_sid != self.account_sid:
            return _error(401, 20003, "Authenticate")
        for name, code, text in (("To", 21201, "No 'To' number is specified"),
                                 ("From", 21213, "No 'From' number is specified"),
                                 ("Url", 21205, "Url parameter is required.")):
            if not form.get(name):
                return _error(400, code, text)
        if self._failures:
            failure = self._failures.pop(0)
            return _error(failure.status, failure.code, failure.message)
        record.sid = "CA" + uuid.uuid4().hex
        return web.json_response(self._call(record), status=201)

    async def _update_call(self, request: web.Request) -> web.Response:
        form = {**await form_of(request), "CallSid": request.match_info["call_sid"]}
        record = Sent(account_sid=request.match_info["account_sid"], form=form, status=0, sid=form["CallSid"])
        self.call_updates.add(record)
        if not self._authorized(request):
            response = _error(401, 20003, "Authenticate")
        elif self._update_failures:
            failure = self._update_failures.pop(0)
            response = _error(failure.status, failure.code, failure.message)
        else:
            response = web.json_response({"account_sid": self.account_sid, "sid": record.sid, "status": "in-progress",
                                          "uri": f"/2010-04-01/Accounts/{self.account_sid}/Calls/{record.sid}.json"})
        record.status = response.status
        return response

    def _call(self, record: Sent) -> dict[str, Any]:
        created = rfc2822(record.created)
        return {
            "account_sid": self.account_sid, "api_version": "2010-04-01", "date_created": created,
            "date_updated": created, "direction": "outbound-api", "from": record.form["From"], "to": record.to,
            "sid": record.sid, "start_time": None, "status": "queued",
            "uri": f"/2010-04-01/Accounts/{self.account_sid}/Calls/{record.sid}.json",
        }

    async def answer(self, call: Sent, digits: str | None = None, *, post=None,
                     answered_by: str | None = None) -> tuple[str, str]:
        """Pick the call up as Twilio would: post the signed voice webhook to its Url; with `digits`,
        post them to the <Gather> action of the TwiML it got. Returns (the call's TwiML, the TwiML
        after the digits). `post(url, form, headers) -> text` sends a request (default: over HTTP;
        an in-process test hands its ASGI client's)."""
        form = {"AccountSid": self.account_sid, "CallSid": call.sid or "", "From": call.form["From"],
                "To": call.to, "CallStatus": "in-progress", "Direction": "outbound-api", "ApiVersion": "2010-04-01"}
        if answered_by is not None:
            form["AnsweredBy"] = answered_by
        post = post or _http_post
        first = await self._signed(post, call.form["Url"], form)
        if digits is None:
            return first, ""
        return first, await self._signed(post, _gather_action(first), {**form, "Digits": digits})

    async def post_signed(self, url: str, form: dict[str, str], *, post=None) -> str:
        """Post `form` to `url` signed as Twilio signs its webhooks (a <Dial> action, a whisper)."""
        return await self._signed(post or _http_post, url, form)

    async def _signed(self, post, url: str, form: dict[str, str]) -> str:
        headers = {"X-Twilio-Signature": RequestValidator(self.auth_token).compute_signature(url, form)}
        return await post(url, form, headers)

    # -- the endpoint --------------------------------------------------------------------------
    async def _create(self, request: web.Request) -> web.Response:
        account_sid = request.match_info["account_sid"]
        form = await form_of(request)
        record = Sent(account_sid=account_sid, form=form, status=0)
        response = self.answered(record, self._answer(request, account_sid, form, record))
        if record.sid and self.callbacks and form.get("StatusCallback"):
            task = asyncio.ensure_future(self._post_callbacks(form["StatusCallback"], record))
            self._callback_tasks.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._callback_tasks.discard)
        return response

    def _answer(self, request: web.Request, account_sid: str, form: dict[str, str], record: Sent) -> web.Response:
        if basic_auth(request) != (self.account_sid, self.auth_token) or account_sid != self.account_sid:
            return _error(401, 20003, "Authenticate")
        for name, code, text in (("To", 21604, "A 'To' phone number is required."),
                                 ("From", 21603, "A 'From' phone number is required."),
                                 ("Body", 21602, "Message body is required.")):
            if not form.get(name):
                return _error(400, code, text)
        if len(form["Body"]) > MAX_BODY_CHARS:
            return _error(400, 21617, "The concatenated message body exceeds the 1600 character limit.")
        if form["To"] in self.opted_out:
            return _error(400, 21610, "Attempt to send to unsubscribed recipient")
        if self._failures:
            failure = self._failures.pop(0)
            return _error(failure.status, failure.code, failure.message)
        record.sid = "SM" + uuid.uuid4().hex
        return web.json_response(self._message(record), status=201)

    def _message(self, record: Sent) -> dict[str, Any]:
        now = rfc2822(record.created)
        uri = f"/2010-04-01/Accounts/{self.account_sid}/Messages/{record.sid}"
        body = record.form["Body"]
        return {
            "account_sid": self.account_sid, "api_version": "2010-04-01", "body": body,
            "date_created": now, "date_sent": None, "date_updated": now, "direction": "outbound-api",
            "error_code": None, "error_message": None, "from": record.form["From"], "messaging_service_sid": None,
            "num_media": "0", "num_segments": str(max(1, -(-len(body) // 153))), "price": None,
            "price_unit": "USD", "sid": record.sid, "status": "queued", "to": record.form["To"],
            "uri": uri + ".json", "subresource_uris": {"media": uri + "/Media.json"},
        }

    async def _post_callbacks(self, url: str, record: Sent) -> None:
        validator = RequestValidator(self.auth_token)
        async with aiohttp.ClientSession() as session:
            for status in self.callback_statuses:
                form = {"AccountSid": self.account_sid, "MessageSid": record.sid or "", "SmsSid": record.sid or "",
                        "MessageStatus": status, "SmsStatus": status, "To": record.to,
                        "From": record.form.get("From", ""), "ApiVersion": "2010-04-01"}
                if status in ("failed", "undelivered") and self.callback_error_code:
                    form["ErrorCode"] = self.callback_error_code
                callback = Callback(url=url, form=form)
                headers = {"X-Twilio-Signature": validator.compute_signature(url, form),
                           "I-Twilio-Idempotency-Token": uuid.uuid4().hex}
                try:
                    async with session.post(url, data=form, headers=headers) as response:
                        callback.status = response.status
                except aiohttp.ClientError:
                    callback.status = None
                self.callback_posts.add(callback)

    def wait_for_callbacks(self, count: int, timeout_s: float = 20.0) -> list[Callback]:
        """Block until `count` status callbacks were posted (or the timeout passes); returns them."""
        return self.callback_posts.wait_for(count, lambda callback: True, timeout_s)
