"""The steady mixed load of bench/chaos.py and bench/soak.py: closed-loop senders on every channel.

SMS through the signed Twilio webhook, as a number configured as the README says: a primary that
fails is followed at once by the fallback request (the same route, with ErrorCode and ErrorUrl), and
an attempt that still fails is redelivered with the same MessageSid (Twilio's connection overrides,
`rc`), email through the signed Mailgun route form and
Telegram updates (both retried on any non-2xx, as Mailgun and Telegram retry), and phone calls:
the ElevenLabs personalization webhook then a server tool on that call. Every text carries a tag
(`[c123]`) that the model stand-in repeats in its answer, so each delivered reply names its message.
Nothing here decides what happened to a message: bench/chaos_audit.py reads that from the store
and the stand-ins.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import time
import uuid
from dataclasses import dataclass, field

import httpx

TAG = re.compile(r"\[(c\d+)\]")
YALE, YALE_EMAIL = "+12065550100", "yale@clara.example"
# Between the ring and the agent's first server tool: it speaks its first message and the caller
# answers before any tool runs (ElevenLabs calls tools from the conversation, not at pickup).
AGENT_GREETING_S = 1.5
_tags = itertools.count(1)


@dataclass
class Message:
    """One inbound text as a provider sent it, with every attempt's HTTP status (0: no answer)."""

    channel: str  # sms | email | telegram
    id: str  # the inbound log's id: MessageSid, email:<Message-Id>, telegram:<update_id>
    tag: str
    sender: str
    sent_at: float
    statuses: list[int] = field(default_factory=list)
    rescued: list[int] = field(default_factory=list)  # SMS: primary answers the fallback request then took 200
    inline: str = ""  # SMS: the <Message> texts of the TwiML answer that ended the attempts
    done_at: float = 0.0

    @property
    def accepted_http(self) -> bool:
        return bool(self.statuses) and self.statuses[-1] == 200


@dataclass
class Call:
    """One voice webhook request (personalization or a server tool) and how it was answered."""

    kind: str
    sent_at: float
    status: int = 0
    ok: bool = False  # 200 with the body the agent needs (the prompt override / a tool result)
    detail: str = ""  # the body of an answer that was not ok
    done_at: float = 0.0


@dataclass
class Secrets:
    base_url: str
    twilio_token: str
    account_sid: str
    mailgun_key: str
    telegram_secret: str
    voice_token: str


def add_load_arguments(parser: argparse.ArgumentParser, *, sms: int, email: int, telegram: int, voice: int,
                       think_s: float) -> None:
    """The load's shape on the command line, as chaos.py and soak.py both take it (their own defaults)."""
    parser.add_argument("--store", choices=["sqlite", "dynamodb"], default="sqlite")
    parser.add_argument("--sms", type=int, default=sms)
    parser.add_argument("--email", type=int, default=email)
    parser.add_argument("--telegram", type=int, default=telegram)
    parser.add_argument("--voice", type=int, default=voice)
    parser.add_argument("--think-s", type=float, default=think_s)


def next_tag() -> str:
    return f"c{next(_tags)}"


@dataclass
class MixedLoad:
    secrets: Secrets
    sms_phones: list[str]
    voice_phones: list[str]
    email_senders: int = 2
    telegram_senders: int = 2
    think_s: float = 0.5
    retry_for_s: float = 90.0  # how long email/Telegram redeliver a refused message
    messages: list[Message] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: list[asyncio.Task] = field(default_factory=list)

    def start(self) -> None:
        http = httpx.AsyncClient(base_url=self.secrets.base_url, timeout=30.0,
                                 limits=httpx.Limits(max_connections=64))
        self._http = http
        senders = [self._sms(phone) for phone in self.sms_phones]
        senders += [self._email(f"bench{i}@tenants.example") for i in range(self.email_senders)]
        senders += [self._telegram(5_550_000 + i) for i in range(self.telegram_senders)]
        senders += [self._voice(phone) for phone in self.voice_phones]
        self._tasks = [asyncio.create_task(s) for s in senders]

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks)
        await self._http.aclose()

    async def _pause(self) -> None:
        try:
            await asyncio.wait_for(self._stop.wait(), self.think_s)
        except TimeoutError:
            pass

    async def _post(self, path: str, **kwargs) -> httpx.Response | None:
        try:
            return await self._http.post(path, **kwargs)
        except httpx.HTTPError:  # reset by a dying replica or proxy hop
            return None

    # -- SMS --------------------------------------------------------------------------------
    async def _sms(self, phone: str) -> None:
        from gateway.cli.sms import inbound_form

        while not self._stop.is_set():
            tag = next_tag()
            message = Message("sms", "SM" + uuid.uuid4().hex, tag, phone, time.monotonic())
            self.messages.append(message)
            form = inbound_form(from_=phone, to=YALE, body=f"what are the office hours? [{tag}]",
                                message_sid=message.id, account_sid=self.secrets.account_sid)
            for _ in range(3):
                response = await self._twilio_attempt(message, form)
                if response is not None:
                    message.inline = " / ".join(re.findall(r"<Message>(.*?)</Message>", response.text, re.S))
                    break
                await asyncio.sleep(1.0)
            message.done_at = time.monotonic()
            await self._pause()

    async def _twilio_attempt(self, message: Message, form: dict[str, str]) -> httpx.Response | None:
        """The primary request, then the fallback request at once if the primary failed: the 200, or None."""
        from gateway.twilio.signature import sign

        url = self.secrets.base_url + "/sms/twilio"
        response = await self._post("/sms/twilio", data=form, headers={"X-Twilio-Signature": sign(
            self.secrets.twilio_token, url, form)})
        primary = response.status_code if response is not None else 0
        if primary == 200:
            message.statuses.append(primary)
            return response
        fallback = {**form, "ErrorCode": "11200", "ErrorUrl": url}
        response = await self._post("/sms/twilio", data=fallback, headers={"X-Twilio-Signature": sign(
            self.secrets.twilio_token, url, fallback)})
        if response is not None and response.status_code == 200:
            message.rescued.append(primary)
            message.statuses.append(200)
            return response
        message.statuses += [primary, response.status_code if response is not None else 0]
        return None

    # -- email and Telegram: retried until 2xx, as their providers do --------------------------
    async def _until_taken(self, message: Message, path: str, **kwargs) -> None:
        deadline = time.monotonic() + self.retry_for_s
        while True:
            response = await self._post(path, **kwargs)
            message.statuses.append(response.status_code if response is not None else 0)
            if response is not None and (response.status_code < 300 or response.status_code in (400, 401, 403, 406)):
                break
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(1.0)
        message.done_at = time.monotonic()

    async def _email(self, address: str) -> None:
        from gateway.email.route_form import new_message_id, route_form

        while not self._stop.is_set():
            tag, message_id = next_tag(), new_message_id("tenants.example")
            message = Message("email", f"email:{message_id}", tag, address, time.monotonic())
            self.messages.append(message)
            form = route_form(signing_key=self.secrets.mailgun_key, from_=address, to=YALE_EMAIL,
                              subject="pool hours", text=f"when is the pool open? [{tag}]", message_id=message_id)
            await self._until_taken(message, "/email/inbound", data=form)
            await self._pause()

    async def _telegram(self, user_id: int) -> None:
        from gateway.telegram.updates import new_update_id, text_update
        from gateway.telegram.wire import SECRET_HEADER

        while not self._stop.is_set():
            tag, update_id = next_tag(), new_update_id()
            message = Message("telegram", f"telegram:{update_id}", tag, str(user_id), time.monotonic())
            self.messages.append(message)
            update = text_update(user_id=user_id, text=f"is there parking? [{tag}]", update_id=update_id)
            await self._until_taken(message, "/telegram/webhook", json=update,
                                    headers={SECRET_HEADER: self.secrets.telegram_secret})
            await self._pause()

    # -- voice: a call rings (personalization), then the agent calls a server tool -----------------
    async def _voice(self, phone: str) -> None:
        auth = {"Authorization": f"Bearer {self.secrets.voice_token}"}
        while not self._stop.is_set():
            call_sid = "CA" + uuid.uuid4().hex
            ring = Call("personalization", time.monotonic())
            self.calls.append(ring)
            response = await self._post("/voice/personalization", headers=auth, json={
                "caller_id": phone, "agent_id": "bench", "called_number": YALE, "call_sid": call_sid})
            _ended(ring, response, lambda r: "conversation_config_override" in r.text or "dynamic_variables" in r.text)
            if ring.ok:
                await asyncio.sleep(AGENT_GREETING_S)
                tool = Call("server_tool", time.monotonic())
                self.calls.append(tool)
                response = await self._post("/voice/tools/get_property_hours", headers=auth,
                                            json={"call_sid": call_sid})
                _ended(tool, response, lambda r: r.json().get("is_error") is False)
            await self._pause()


def _ended(call: Call, response: httpx.Response | None, good) -> None:
    call.done_at = time.monotonic()
    call.status = response.status_code if response is not None else 0
    try:
        call.ok = response is not None and response.status_code == 200 and bool(good(response))
    except ValueError:
        call.ok = False
    if not call.ok:
        call.detail = response.text if response is not None else "no answer"
