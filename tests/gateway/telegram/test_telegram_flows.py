"""The property's Telegram bot on the same identity-driven path: a user becomes their Person only
by sharing their own contact; K-1..K-5 through the real turn, replies through the Bot API stand-in."""
from __future__ import annotations

from spine.context import Channel
from spine.identity import ClaimKind
from spine.records import OutboxStatus

MIKE_TG, MARCUS_TG, CARLOS_TG = 5550001, 5550002, 5550003


def _keyboard(call) -> list[list[dict]] | None:
    markup = call.payload.get("reply_markup") or {}
    return markup.get("keyboard")


async def test_k2_mike_links_by_sharing_his_own_contact_then_is_the_vendor(make_channels, spine):
    ch = await make_channels()
    linked = await ch.share_contact(MIKE_TG, "+13035551500", first_name="Mike")
    assert linked.status_code == 200 and linked.json()["outcome"] == "linked", linked.text
    assert await spine.find_person_id_by_claim(ClaimKind.TELEGRAM, str(MIKE_TG)) == "p_mike"
    r = await ch.telegram_text(MIKE_TG, "I'm 10 min out from WO-7")
    trace = await ch.trace(r)
    assert trace.channel == Channel.TELEGRAM and trace.participant_id == "p_mike"
    assert trace.routing.roles == ["vendor"]
    confirmation, reply = ch.telegram.wait_for_sends(2)
    assert "linked to your account" in confirmation.payload["text"]
    assert confirmation.payload["reply_markup"] == {"remove_keyboard": True}
    assert reply.payload["chat_id"] == MIKE_TG and reply.payload["text"] == trace.reply
    assert _keyboard(reply) is None  # a linked user is not asked to share again


async def test_a_contact_forwarded_from_someone_else_never_links(make_channels, spine):
    ch = await make_channels()
    r = await ch.share_contact(MIKE_TG + 100, "+12065551001", contact_user_id=MARCUS_TG)
    assert r.json()["outcome"] == "not_linked"
    assert await spine.find_person_id_by_claim(ClaimKind.TELEGRAM, str(MIKE_TG + 100)) is None
    trace = await ch.trace(await ch.telegram_text(MIKE_TG + 100, "my toilet is overflowing!"))
    assert trace.participant_id is None and "create_work_order" not in trace.tools_offered


async def test_a_contact_without_a_user_id_never_links(make_channels, spine):
    ch = await make_channels()
    update = {"update_id": 42, "message": {"message_id": 1, "date": 0, "from": {"id": 777, "is_bot": False},
                                           "chat": {"id": 777, "type": "private"},
                                           "contact": {"phone_number": "12065551001", "first_name": "M"}}}
    assert (await ch.update(update)).json()["outcome"] == "not_linked"
    assert await spine.find_person_id_by_claim(ClaimKind.TELEGRAM, "777") is None


async def test_an_unlinked_user_is_an_unknown_address_offered_the_contact_button(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.telegram_text(9990001, "yo what's up Trevor"))
    assert trace.participant_id is None and trace.routing.roles == ["other"]  # K-5
    [reply] = ch.telegram.wait_for_sends(1)
    assert _keyboard(reply) == [[{"text": "Share my phone number", "request_contact": True}]]


async def test_k1_marcus_after_sharing_his_contact_is_the_tenant(make_channels):
    ch = await make_channels()
    await ch.share_contact(MARCUS_TG, "12065551001")  # Telegram's digits, no '+'
    trace = await ch.trace(await ch.telegram_text(MARCUS_TG, "my toilet is overflowing!"))
    assert trace.participant_id == "p_marcus" and trace.routing.roles == ["tenant"]
    assert "create_work_order" in [c.name for c in trace.tool_calls if c.decision == "allowed"]


async def test_k3_an_unlinked_user_asking_about_units_becomes_a_prospect(make_channels, spine):
    ch = await make_channels()
    trace = await ch.trace(await ch.telegram_text(9990002, "do you have 2BR units next month?"))
    assert trace.routing.roles == ["prospect"] and trace.participant_id.startswith("p_new_telegram_")
    [reply] = ch.telegram.wait_for_sends(1)
    assert _keyboard(reply) is not None  # a minted prospect is not linked by contact


async def test_k4_carlos_after_sharing_his_contact_gets_both_catalogs(make_channels):
    ch = await make_channels()
    await ch.share_contact(CARLOS_TG, "+13035552020")
    trace = await ch.trace(await ch.telegram_text(CARLOS_TG, "check on WO-42"))
    assert trace.routing.roles == ["tenant", "vendor"]
    assert {"create_work_order", "update_work_order"} <= set(trace.tools_offered)


async def test_a_prospect_minted_on_telegram_who_shares_a_known_phone_becomes_that_person(make_channels, spine):
    ch = await make_channels()
    minted = await ch.trace(await ch.telegram_text(9990003, "do you have 2BR units next month?"))
    assert minted.participant_id.startswith("p_new_telegram_")
    await ch.share_contact(9990003, "+12065551002")  # Jordan
    trace = await ch.trace(await ch.telegram_text(9990003, "is the gym open?"))
    assert trace.participant_id == "p_jordan" and trace.routing.roles == ["tenant"]


async def test_a_contact_for_a_phone_the_spine_does_not_hold_links_nothing(make_channels, spine):
    ch = await make_channels()
    r = await ch.share_contact(9990004, "+14155550000")
    assert r.json()["outcome"] == "not_linked" and "couldn't find" in r.json()["reply"]
    assert await spine.find_person_id_by_claim(ClaimKind.TELEGRAM, "9990004") is None


async def test_an_edited_message_is_a_new_turn_marked_as_an_edit(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.telegram_text(9990005, "is the pool open?", edited=True))
    assert trace.inbound == "(edited) is the pool open?"


async def test_without_a_bot_token_replies_wait_in_the_outbox(make_channels, spine):
    ch = await make_channels(with_credentials=False)
    r = await ch.telegram_text(9990006, "is the pool open?", update_id=31337)
    assert r.json()["outcome"] == "answered"
    [row] = [await spine.get_outbox("telegram:31337-reply-0")]
    assert row.status == OutboxStatus.PENDING and row.channel == Channel.TELEGRAM and row.to_address == "9990006"
    assert ch.telegram.calls == []
