"""Consent in one home (desk.outbound.consent): every channel's keyword and a plain request record
the opt-out on that channel alone, with the channel's event, and say the same confirmation."""
from __future__ import annotations

from desk.outbound.consent import opt_in_confirmation, opt_out_by_request, set_consent
from spine.context import Channel
from spine.intent.optout import opt_out_request
from spine.records import EventKind

PHONE, EMAIL, CHAT = "+12065551001", "marcus@example.com", "777001"


async def test_a_keyword_opts_out_of_its_channel_only_with_its_event(spine):
    await set_consent(spine, Channel.TELEGRAM, CHAT, opted_out=True, keyword="/stop", property_id="pf_yale",
                      detail={"message_id": "tg-1"})
    assert await spine.is_opted_out(CHAT, Channel.TELEGRAM) and not await spine.is_opted_out(CHAT, Channel.SMS)
    [event] = await spine.events(EventKind.OPT_OUT)
    assert (event.reason, event.channel, event.property_id, event.detail) == ("stop", "telegram", "pf_yale",
                                                                              {"message_id": "tg-1"})


async def test_email_has_its_own_event_kinds_and_back_in_is_recorded_too(spine):
    await set_consent(spine, Channel.EMAIL, EMAIL, opted_out=True, keyword="unsubscribe", property_id="pf_yale",
                      detail={})
    assert await spine.is_opted_out(EMAIL, Channel.EMAIL)
    await set_consent(spine, Channel.EMAIL, EMAIL, opted_out=False, keyword="subscribe", property_id="pf_yale",
                      detail={})
    assert not await spine.is_opted_out(EMAIL, Channel.EMAIL)
    assert [e.reason for e in await spine.events(EventKind.EMAIL_OPT_OUT)] == ["unsubscribe"]
    assert [e.reason for e in await spine.events(EventKind.EMAIL_OPT_IN)] == ["subscribe"]
    assert await spine.events(EventKind.OPT_OUT) == []


async def test_a_plain_request_is_recorded_as_the_keyword_is_and_confirmed_in_its_language(spine):
    found = opt_out_request("no me escriban más")
    assert found is not None
    text = await opt_out_by_request(spine, Channel.SMS, PHONE, found, message_id="SM1", property_id="pf_yale",
                                    property_name="JP Yale Station")
    assert await spine.is_opted_out(PHONE, Channel.SMS) and text.startswith("Se ha dado de baja")
    [event] = await spine.events(EventKind.OPT_OUT)
    assert (event.reason, event.detail["language"]) == ("plain_request", "es")


def test_the_opt_in_confirmations_name_the_property():
    assert opt_in_confirmation(Channel.SMS, "JP Yale Station") == (
        "You're opted back in to messages from JP Yale Station. Reply HELP for help, STOP to opt out.")
    assert opt_in_confirmation(Channel.EMAIL, "JP Yale Station") == (
        "You're subscribed again to email from JP Yale Station. Reply \"unsubscribe\" to stop.")
