"""A scenario's phone calls (`channel: voice`): what a call takes, in process.

The caller's words go to the configured model with the voice catalog, as the voice agent would get
them; each tool it asks for is a real server-tool webhook (`POST /voice/tools/{name}`: the call's
recorded authority, the gate, the Dispatcher, the redirect through the Calls API). Twilio's Calls
API is an in-process fake (httpx.MockTransport) that records each update; Twilio's requests after
the redirect (the <Dial>, the whisper, the person's key, the <Dial>'s end) are signed as Twilio
signs them and posted to the real routes. A turn's `staff_answers` is what the person a transfer
rings does: "1" takes it, another key passes, "none" lets it ring out."""
from __future__ import annotations

import html
import itertools
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import httpx
from twilio.request_validator import RequestValidator

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.base import ModelBackend, ModelRequest
from actors.model.turn_facts import TurnFacts
from gateway.app import new_app
from gateway.evals.scenario import TransferExpectation
from gateway.settings import Settings
from gateway.voice.elevenlabs_wire import ToolWebhookAnswer
from gateway.voice.services import VoiceServices
from gateway.voice.transfer_return import first_message
from spine.repo import Spine
from spine.routing_types import MetaRole
from spine.toolspec import ToolResult
from spine.transfer import Transfer
from tools.catalog import voice_catalog

PUBLIC_URL = "https://clara.eval"
ACCOUNT_SID, AUTH_TOKEN, VOICE_TOKEN = "AC" + "e" * 32, "eval-twilio-token", "eval-voice-token"
MAX_ROUNDS = 4


class FakeCallsApi:
    """Twilio's Calls API as far as a transfer uses it: `POST .../Calls/{CallSid}.json` updates a call."""

    def __init__(self) -> None:
        self.updates: list[dict[str, str]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        match = re.search(r"/Calls/(CA[0-9a-f]{32})\.json$", request.url.path)
        if request.method != "POST" or match is None:
            return httpx.Response(404, json={"code": 20404, "message": "not found", "status": 404})
        self.updates.append({**dict(parse_qsl(request.content.decode())), "CallSid": match.group(1)})
        return httpx.Response(200, json={"sid": match.group(1), "status": "in-progress"})


@dataclass
class Call:
    sid: str
    caller: str
    line: str
    prompt: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    dial: str = ""  # the <Dial> Twilio is running for the caller now

    @property
    def interaction_id(self) -> str:
        return f"voice-{self.sid}"


class VoiceLine:
    def __init__(self, spine: Spine, model: ModelBackend) -> None:
        self.spine, self.model, self.api = spine, model, FakeCallsApi()
        self.http = httpx.AsyncClient(transport=httpx.MockTransport(self.api))
        settings = Settings(voice_token=VOICE_TOKEN, twilio_auth_token=AUTH_TOKEN, twilio_account_sid=ACCOUNT_SID,
                            twilio_api_base="https://api.twilio.eval", public_url=PUBLIC_URL)
        self.services = VoiceServices.build(settings, spine, Dispatcher(spine), model, http=self.http)
        app = new_app()
        app.state.voice = self.services
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=PUBLIC_URL)
        self.calls: dict[str, Call] = {}
        self._sids = itertools.count(1)
        self.tools = [spec.to_api() for spec in voice_catalog()]

    async def aclose(self) -> None:
        await self.services.calls.drain()
        await self.client.aclose()
        await self.http.aclose()

    async def say(self, caller: str, line: str, words: str) -> tuple[str, str]:
        """(what Clara answers, the call's interaction id)."""
        call = self.calls.get(caller) or await self._dial_in(caller, line)
        call.messages.append({"role": "user", "content": words})
        results: list[ToolResult] = []
        for _ in range(MAX_ROUNDS):
            request = ModelRequest(system=[{"type": "text", "text": call.prompt}], tools=self.tools,
                                   messages=call.messages, facts=await self._facts(call, results))
            response = await self.model.complete(request)
            call.messages.append({"role": "assistant", "content": response.content})
            uses = response.tool_uses()
            if not uses:
                return response.text(), call.interaction_id
            done = [await self._tool(call, use) for use in uses]
            results += done
            call.messages.append({"role": "user", "content": [r.to_api() for r in done]})
        return "", call.interaction_id

    async def _dial_in(self, caller: str, line: str) -> Call:
        sid = f"CA{next(self._sids):032x}"
        r = await self.client.post("/voice/personalization", headers={"X-Clara-Voice-Token": VOICE_TOKEN}, json={
            "caller_id": caller, "agent_id": "eval", "called_number": line, "call_sid": sid})
        r.raise_for_status()
        agent = r.json()["conversation_config_override"]["agent"]
        call = self.calls[caller] = Call(sid=sid, caller=caller, line=line, prompt=agent["prompt"]["prompt"])
        call.messages.append({"role": "assistant", "content": agent.get("first_message") or ""})
        return call

    async def _facts(self, call: Call, results: list[ToolResult]) -> TurnFacts:
        trace = await self.services.calls.call_trace(call.interaction_id)
        roles = [MetaRole(r) for r in trace.routing.roles] if trace is not None else []
        return TurnFacts(roles=roles, results=results)

    async def _tool(self, call: Call, use: dict[str, Any]) -> ToolResult:
        body = {"interaction_id": call.interaction_id, "tool_call_id": use["id"], **use["input"]}
        r = await self.client.post(f"/voice/tools/{use['name']}", headers={"X-Clara-Voice-Token": VOICE_TOKEN},
                                   json=body)
        answer = ToolWebhookAnswer.model_validate(r.json()) if r.status_code == 200 else \
            ToolWebhookAnswer(result=r.text, is_error=True)
        return ToolResult(tool_use_id=use["id"], name=use["name"], content=str(answer.result),
                          is_error=answer.is_error)

    # -- after a redirect: Twilio's side -----------------------------------------------------------
    async def staff_answers(self, caller: str, what: str) -> str:
        """The person the transfer rings now answers `what`; what the caller hears next."""
        call = self.calls.get(caller)
        if call is None:
            return "(no call)"
        if not call.dial:
            update = next((u for u in reversed(self.api.updates) if u["CallSid"] == call.sid), None)
            if update is None:
                return "(the call was not moved)"
            call.dial = await self._twilio(update["Url"], call)
        if "<Dial" not in call.dial:
            return _heard(call.dial)
        if what != "none":
            leg = {"ParentCallSid": call.sid, "CallSid": "CA" + "d" * 32, "Direction": "outbound-dial"}
            whisper = await self._twilio(_attr(call.dial, "Number", "url"), call, **leg)
            after = await self._twilio(_attr(whisper, "Gather", "action"), call, Digits=what, **leg)
            if "<Hangup" not in after:
                return f"(connected to {_number(call.dial)}) " + _heard(whisper)
        status = "completed" if what != "none" else "no-answer"
        call.dial = await self._twilio(_attr(call.dial, "Dial", "action"), call, DialCallStatus=status)
        return await self._heard_next(call)

    async def _heard_next(self, call: Call) -> str:
        if "<Dial" in call.dial:
            return f"(rings {_number(call.dial)})"
        if "<Stream" in call.dial:
            transfer = await self.latest_transfer(call.caller)
            return "(back with Clara) " + (first_message(transfer) if transfer else "")
        return _heard(call.dial)

    async def _twilio(self, url: str, call: Call, **extra: str) -> str:
        form = {"AccountSid": ACCOUNT_SID, "CallSid": call.sid, "From": call.caller, "To": call.line,
                "CallStatus": "in-progress", "Direction": "inbound", "ApiVersion": "2010-04-01", **extra}
        headers = {"X-Twilio-Signature": RequestValidator(AUTH_TOKEN).compute_signature(url, form)}
        r = await self.client.post(url, data=form, headers=headers)
        r.raise_for_status()
        return r.text

    async def latest_transfer(self, caller: str) -> Transfer | None:
        call = self.calls.get(caller)
        found = await self.spine.transfers_of_call(call.interaction_id) if call else []
        return found[-1] if found else None


def _attr(twiml: str, tag: str, name: str) -> str:
    match = re.search(rf'<{tag}[^>]*\b{name}="([^"]+)"', twiml)
    if match is None:
        raise ValueError(f"no <{tag} {name}> in the TwiML: {twiml[:200]}")
    return html.unescape(match.group(1))


def _number(twiml: str) -> str:
    match = re.search(r"<Number[^>]*>([^<]+)</Number>", twiml)
    return match.group(1) if match else "?"


def _heard(twiml: str) -> str:
    return " ".join(html.unescape(s) for s in re.findall(r"<Say>([^<]*)</Say>", twiml)) or "(silence)"


async def check_transfer(line: VoiceLine, caller: str, want: TransferExpectation) -> list[str]:
    transfer = await line.latest_transfer(caller)
    if transfer is None:
        return ["transfer: the call has none"]
    failures = []
    for name in ("outcome", "urgency"):
        wanted = getattr(want, name)
        if wanted is not None and str(getattr(transfer, name)) != wanted:
            failures.append(f"transfer {name}: wanted {wanted}, got {getattr(transfer, name)}")
    if want.targets is not None and [t.label for t in transfer.targets] != want.targets:
        failures.append(f"transfer targets: wanted {want.targets}, got {[t.label for t in transfer.targets]}")
    if want.escalation is not None and bool(transfer.escalation_id) != want.escalation:
        failures.append(f"transfer escalation: wanted {want.escalation}, got {transfer.escalation_id}")
    return failures
