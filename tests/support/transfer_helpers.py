"""Driving a call transfer as Twilio would, in-process: the tool through the server-tool webhook,
then Twilio's signed requests to the transfer routes (the redirect's Url, the <Dial>'s whisper and
action), through the Twilio stand-in's signing and the test's ASGI client."""
from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime

from tests.support.voice_helpers import ACCOUNT, MARCUS, VOICE_TOKEN, YALE_LINE

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}
MONDAY_10AM_SEATTLE = datetime(2026, 12, 7, 18, 0, tzinfo=UTC)
SATURDAY_NOON_SEATTLE = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
MIKE, PRIYA, OFFICE = "+13035551500", "+12065550150", "+12065550190"


def asgi_post(client):
    async def post(url: str, form: dict, headers: dict) -> str:
        response = await client.post(url, data=form, headers=headers)
        assert response.status_code == 200, response.text
        return response.text
    return post


def attribute(twiml: str, tag: str, name: str) -> str:
    match = re.search(rf'<{tag}[^>]*\b{name}="([^"]+)"', twiml)
    assert match is not None, f"no <{tag} {name}=...> in {twiml}"
    return html.unescape(match.group(1))


def number(twiml: str) -> str:
    match = re.search(r"<Number[^>]*>([^<]+)</Number>", twiml)
    assert match is not None, twiml
    return match.group(1)


class TwilioCall:
    """One live call as Twilio sees it: its sid, caller, and the signed requests Twilio makes."""

    def __init__(self, client, twilio, call_sid: str, caller: str = MARCUS) -> None:
        self.client, self.twilio, self.call_sid, self.caller = client, twilio, call_sid, caller

    def form(self, **extra: str) -> dict[str, str]:
        return {"AccountSid": ACCOUNT, "CallSid": self.call_sid, "From": self.caller, "To": YALE_LINE,
                "CallStatus": "in-progress", "Direction": "inbound", "ApiVersion": "2010-04-01", **extra}

    async def personalize(self) -> str:
        r = await self.client.post("/voice/personalization", headers=AUTH, json={
            "caller_id": self.caller, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": self.call_sid})
        assert r.status_code == 200, r.text
        return f"voice-{self.call_sid}"

    async def transfer(self, reason: str = "wants to talk to someone", urgency: str = "normal") -> dict:
        r = await self.client.post("/voice/tools/transfer_to_staff", headers=AUTH, json={
            "interaction_id": f"voice-{self.call_sid}", "reason": reason, "urgency": urgency, "agent_turn": 2})
        assert r.status_code == 200, r.text
        answer = r.json()
        return {**answer, "out": json.loads(answer["result"]) if not answer["is_error"] else None}

    async def fetch(self, url: str, **extra: str) -> str:
        return await self.twilio.post_signed(url, self.form(**extra), post=asgi_post(self.client))

    async def whisper(self, dial_twiml: str, digits: str) -> tuple[str, str]:
        """The person's leg: the whisper, then their key."""
        leg = {"ParentCallSid": self.call_sid, "CallSid": "CA" + "e" * 32, "Direction": "outbound-dial"}
        whisper = await self.twilio.post_signed(attribute(dial_twiml, "Number", "url"), self.form(**leg),
                                                post=asgi_post(self.client))
        after = await self.twilio.post_signed(attribute(whisper, "Gather", "action"),
                                              self.form(**leg, Digits=digits), post=asgi_post(self.client))
        return whisper, after

    async def dial_result(self, dial_twiml: str, status: str) -> str:
        return await self.fetch(attribute(dial_twiml, "Dial", "action"), DialCallStatus=status)
