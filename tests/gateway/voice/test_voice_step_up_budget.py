"""The step-up's budget (issue 28, finding 7): codes per Person in sliding windows (a few per 15
minutes, a daily cap), and a spoofer using the budget up cannot keep the real person from verifying
from the number on file. In-process through the real routes; texts through the Twilio stand-in.
Past sends are written to the store as the budget would have recorded them (the clock is real)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from spine.identity import utcnow
from tests.support.voice_helpers import MARCUS, VOICE_TOKEN, YALE_LINE

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}


@pytest.fixture
def services(twilio_services):
    return twilio_services  # this module's calls reach the Twilio stand-in


async def _call(client, sid: str) -> str:
    r = await client.post("/voice/personalization", headers=AUTH, json={
        "caller_id": MARCUS, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": sid})
    assert r.status_code == 200
    return f"voice-{sid}"


async def _tool(client, iid: str, name: str, **args) -> dict:
    r = await client.post(f"/voice/tools/{name}", headers=AUTH, json={**args, "interaction_id": iid})
    assert r.status_code == 200
    return r.json()


async def _sent_before(spine, *ages: timedelta) -> None:
    """Codes sent to Marcus's number `ages` ago, as the budget recorded them (no limit applied)."""
    now = utcnow()
    for at in sorted(now - age for age in ages):
        assert await spine.take_step_up_send("p_marcus", at, ()) is None


def _codes(twilio) -> list[str]:
    return [re.search(r"\b(\d{6})\b", t.body).group(1) for t in twilio.accepted()]


@pytest.mark.parametrize("ages, sent", [
    ((timedelta(minutes=14, seconds=58),) * 3, False),  # three in the last 15 minutes, whatever the clock says
    ((timedelta(minutes=15, seconds=2),) * 3, True),  # just out of the window
    (tuple(timedelta(hours=h, minutes=30) for h in range(10)), False),  # ten today: the daily cap
    (tuple(timedelta(hours=h, minutes=30) for h in range(9)), True),
    (tuple(timedelta(hours=24, minutes=h) for h in range(10)), True),  # yesterday's do not count
])
async def test_codes_per_person_in_sliding_windows(client, spine, twilio, ages, sent):
    await _sent_before(spine, *ages)
    answer = await _tool(client, await _call(client, "CA_window"), "send_verification_code")
    assert (not answer["is_error"], len(twilio.accepted())) == (sent, int(sent))
    if not sent:
        assert "a new one can be sent in about" in answer["result"]


async def test_a_burst_never_gets_past_three(client, twilio):
    iids = [await _call(client, f"CA_burst_{n}") for n in range(3)]
    for iid in iids * 2:
        await _tool(client, iid, "send_verification_code")
    assert len(twilio.accepted()) == 3


async def test_a_spoofer_using_the_budget_up_does_not_lock_the_real_person_out(client, twilio):
    spoofer = await _call(client, "CA_spoofer")
    for _ in range(3):
        assert (await _tool(client, spoofer, "send_verification_code"))["is_error"] is False
    wrong = f"{(int(_codes(twilio)[0]) + 1) % 10**6:06d}"
    for n in range(3):  # the spoofer does not have the texts: guesses
        await _tool(client, spoofer, "check_verification_code", code=wrong + " " * n)
    assert (await _tool(client, spoofer, "get_balance"))["is_error"]

    real = await _call(client, "CA_real_marcus")
    again = await _tool(client, real, "send_verification_code")
    assert again["is_error"] is False and "No new code" in again["result"] and len(twilio.accepted()) == 3
    # Marcus reads a code from the texts on his phone (the first the spoofer's requests sent him).
    ok = await _tool(client, real, "check_verification_code", code=_codes(twilio)[0])
    assert ok["is_error"] is False and "verified" in ok["result"]
    assert (await _tool(client, real, "get_balance"))["is_error"] is False


async def test_guessing_across_calls_is_bounded(client, twilio):
    calls = [await _call(client, f"CA_guess_{n}") for n in range(3)]
    await _tool(client, calls[0], "send_verification_code")
    code = _codes(twilio)[0]
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for iid in calls[:2]:
        for n in range(3):
            await _tool(client, iid, "check_verification_code", code=wrong + " " * n)
    late = await _tool(client, calls[2], "check_verification_code", code=code)
    assert late["is_error"] and "no longer valid" in late["result"]
