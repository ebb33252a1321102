"""A plain request to stop ("stop texting me", "no me escriban más") on SMS, email and Telegram:
the person is opted out of that channel as by its keyword, gets one confirmation in the language
they wrote in, and no turn runs. "I can't stop the leak" still reaches Clara."""
from __future__ import annotations

import pytest

from spine.context import Channel
from spine.records import EventKind
from tests.support.gateway_helpers import MARCUS, ScriptedPool, text


@pytest.mark.parametrize(("body", "says"), [("stop texting me", "unsubscribed"),
                                            ("please don't text me anymore", "unsubscribed"),
                                            ("no me escriban más", "Se ha dado de baja")])
async def test_sms_plain_request_opts_out_with_the_stop_confirmation(make_gateway, spine, twilio, body, says):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    reply = await text(client, body)
    assert len(reply.messages) == 1 and says in reply.messages[0] and "START" in reply.messages[0]
    assert pool.submitted == []  # no turn: no greeting in the wrong language
    assert await spine.is_opted_out(MARCUS, Channel.SMS)
    assert not await spine.is_opted_out("marcus@example.com", Channel.EMAIL)  # that channel only
    after = await text(client, "my toilet is overflowing!")
    assert after.messages == [] and pool.submitted == []
    [event] = [e for e in await spine.events(EventKind.OPT_OUT) if e.reason == "plain_request"]
    assert event.channel == Channel.SMS


async def test_sms_stop_inside_a_sentence_is_an_ordinary_message(make_gateway, spine):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    assert (await text(client, "I can't stop the leak")).messages == ["echo: I can't stop the leak"]
    assert not await spine.is_opted_out(MARCUS, Channel.SMS)


async def test_email_plain_request_opts_out_and_confirms_once(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    answer = await ch.email("marcus@example.com", "Please stop emailing me.")
    assert answer.json()["outcome"] == "opted_out" and ch.pool.submitted == []
    assert await spine.is_opted_out("marcus@example.com", Channel.EMAIL)
    [confirmation] = ch.mailgun.wait_for_sends(1)
    assert "unsubscribed" in confirmation.form["text"]
    assert (await ch.email("marcus@example.com", "is the gym open?")).json()["outcome"] == "blocked"


async def test_a_forged_plain_request_changes_nothing(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    await ch.email("marcus@example.com", "stop emailing me", sender="mallory@evil.example", spf="fail", dkim="none")
    assert not await spine.is_opted_out("marcus@example.com", Channel.EMAIL)


async def test_telegram_plain_request_in_spanish_is_confirmed_in_spanish(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    answer = await ch.telegram_text(7, "no más mensajes por favor")
    assert answer.json()["outcome"] == "opted_out" and ch.pool.submitted == []
    assert await spine.is_opted_out("7", Channel.TELEGRAM)
    [confirmation] = ch.telegram.wait_for_sends(1)
    assert "Se ha dado de baja" in confirmation.payload["text"]
