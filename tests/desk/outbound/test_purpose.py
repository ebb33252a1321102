"""A started message's purpose: marketing never reaches a number that never wrote to us, an
opted-out person, or anyone at once (urgent); service is as before. Clara's first follow-up to a
person says she is an AI assistant, once."""
from __future__ import annotations

from desk.outbound.queue import NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.notification import Purpose
from spine.records import LastContact, OptOut, OutboxStatus

MARCUS = "+12065551001"


def _req(key: str, purpose: Purpose = Purpose.MARKETING, kind: NotificationKind = NotificationKind.FOLLOWUP,
         **extra) -> OutboundRequest:
    return OutboundRequest(key=key, kind=kind, recipient_person_id="p_marcus", property_id="pf_yale",
                           body="Units are open for tours this week.", purpose=purpose, channel=Channel.SMS, **extra)


async def test_marketing_only_to_a_number_that_wrote_to_us(spine):
    never = await queue_outbound(spine, _req("m1"))
    assert never.status == NotificationStatus.BLOCKED and "wrote to us" in (never.reason or "")
    service = await queue_outbound(spine, _req("s1", purpose=Purpose.SERVICE))
    assert service.status != NotificationStatus.BLOCKED
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS))
    wrote = await queue_outbound(spine, _req("m2"))
    assert wrote.status != NotificationStatus.BLOCKED


async def test_marketing_is_never_urgent_and_never_to_an_opted_out_person(spine):
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS))
    assert (await queue_outbound(spine, _req("m3", urgent=True))).reason == "marketing is never urgent"
    await spine.set_opt_out(OptOut(address=MARCUS, opted_out=True, keyword="STOP", channel=Channel.SMS))
    blocked = await queue_outbound(spine, _req("m4"))
    assert blocked.status == NotificationStatus.BLOCKED
    assert (await spine.get_outbox("m4")).status == OutboxStatus.BLOCKED


async def test_the_first_follow_up_says_clara_is_an_ai_assistant_once(spine):
    await queue_outbound(spine, _req("f1", purpose=Purpose.SERVICE))
    await queue_outbound(spine, _req("f2", purpose=Purpose.SERVICE))
    first, second = await spine.get_outbox("f1"), await spine.get_outbox("f2")
    assert "AI assistant at JP Yale Station" in first.body
    assert "AI assistant" not in second.body
