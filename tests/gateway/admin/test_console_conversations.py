"""Conversations and take over / hand back, through the real SMS webhook and real PersonActors
(offline model, in-process host, no Ray): every message recorded once, Clara silent while staff
answer (the safety net excepted), staff messages through the one outbox, scoped authority."""
from __future__ import annotations

import asyncio

import pytest

from desk.outbound.queue import NotificationKind
from spine.records import EventKind, OutboxStatus
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app, staff
from tests.support.gateway_helpers import MARCUS, text

CONVO = "/admin/api/conversations"


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client, context
    await client.aclose()
    await context.sms.drain()
    await context.http.aclose()


@pytest.fixture
async def people(spine):
    return await staff(spine, "p_priya", "p_nora", "p_sam")


def reply_of(exchange) -> str:
    assert exchange.status_code == 200, exchange.error
    return " ".join(exchange.messages)


async def messages(client, person_id: str = "p_marcus", headers=AUTH) -> dict:
    answer = await client.get(f"{CONVO}/{person_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_texts_and_replies_make_one_conversation(app, people):
    client, _ = app
    assert reply_of(await text(client, "what are the office hours?"))
    convo = await messages(client, headers=people["p_priya"])
    assert [(m["author"], m["channel"]) for m in convo["messages"]] == [("person", "sms"), ("clara", "sms")]
    assert convo["messages"][0]["text"] == "what are the office hours?"
    assert convo["messages"][1]["trace_url"] == f"/admin/traces/{convo['messages'][1]['interaction_id']}"
    assert (convo["mode"], convo["name"], convo["roles"]) == ("clara", "Marcus Johnson", ["tenant"])
    listed = (await client.get(CONVO, headers=people["p_priya"])).json()["conversations"]
    [marcus] = [c for c in listed if c["person_id"] == "p_marcus"]
    assert (marcus["property_id"], marcus["last_channel"], marcus["mode"], marcus["staff_person_id"]) == (
        "pf_yale", "sms", "clara", None)
    assert MARCUS not in str(listed)
    assert (await client.get(CONVO, headers=people["p_nora"])).json()["conversations"] == []  # Beacon only
    assert (await client.get(f"{CONVO}/p_marcus", headers=people["p_nora"])).status_code == 404


async def test_a_staff_message_takes_over_and_goes_through_the_outbox(app, people, spine):
    client, _ = app
    await text(client, "my sink is dripping")
    sent = await client.post(f"{CONVO}/p_marcus/messages", json={"text": "Hi Marcus, Priya here."},
                             headers=people["p_priya"])
    assert sent.status_code == 200, sent.text
    body = sent.json()
    assert (body["mode"], body["staff_person_id"]) == ("staff", "p_priya")
    assert body["notification"]["kind"] == NotificationKind.STAFF and body["notification"]["channel"] == "sms"
    row = await spine.get_outbox(body["notification"]["outbox_id"])
    assert (row.to_address, row.body, row.status) == (MARCUS, "Hi Marcus, Priya here.", OutboxStatus.PENDING)
    assert [e.detail["staff_person_id"] for e in await spine.events(EventKind.TAKEOVER_STARTED)] == ["p_priya"]

    held = await text(client, "ok thanks, when can you come?")
    assert reply_of(held) == ""  # Clara is silent while staff answer
    convo = await messages(client)
    assert [m["author"] for m in convo["messages"]] == ["person", "clara", "staff", "person"]
    assert convo["messages"][-1]["unread"] and convo["mode"] == "staff"
    assert convo["messages"][2]["staff_person_id"] == "p_priya"
    [notice] = await spine.events(EventKind.TAKEOVER_HELD)
    assert notice.detail["staff_person_id"] == "p_priya"
    told = [m for m in await spine.outbox(OutboxStatus.PENDING, limit=100) if m.to_address == "+12065550150"]
    assert told and "when can you come" in told[0].body  # the staff member hears of it

    emergency = reply_of(await text(client, "there is a fire in my kitchen!"))
    assert "911" in emergency  # the safety net still answers an emergency
    queue = (await client.get("/admin/api/escalations", headers=people["p_priya"])).json()["escalations"]
    [paged] = [e for e in queue if e["urgency"] == "emergency"]
    assert paged["page"]["status"] == "paging" and paged["page"]["level"] == 1  # and its page (demo plan)

    back = await client.post(f"{CONVO}/p_marcus/handback", headers=people["p_priya"])
    assert back.json()["mode"] == "clara"
    assert [e.reason for e in await spine.events(EventKind.TAKEOVER_ENDED)] == ["handback"]
    assert reply_of(await text(client, "what are the office hours?"))  # Clara again
    history = _actor_history(app[1])
    assert any("Hi Marcus, Priya here." in m["content"] for m in history)  # she knows what staff said
    assert any("when can you come" in m["content"] for m in history)


def _actor_history(context) -> list[dict]:
    [host] = context.pool.hosts
    return list(host.host.persons["person:p_marcus"].transcript)


async def test_a_viewer_reads_but_never_writes(app, people, spine):
    client, _ = app
    await text(client, "hello")
    assert (await messages(client, headers=people["p_sam"]))["messages"]
    for action, body in (("messages", {"text": "hi"}), ("takeover", None), ("handback", None)):
        refused = await client.post(f"{CONVO}/p_marcus/{action}", json=body, headers=people["p_sam"])
        assert refused.status_code == 403, action
    assert (await client.post(f"{CONVO}/p_marcus/takeover", headers=people["p_nora"])).status_code == 404
    assert (await client.post(f"{CONVO}/p_marcus/messages", json={"text": " "}, headers=AUTH)).status_code == 422
    assert (await messages(client))["mode"] == "clara"
    assert not await spine.events(EventKind.TAKEOVER_STARTED)


async def test_staff_silence_hands_the_conversation_back(spine, people):
    client, context = console_app(spine, idle_release_s=1.0)
    try:
        taken = await client.post(f"{CONVO}/p_marcus/takeover", headers=people["p_priya"])
        assert taken.json()["mode"] == "staff"
        assert reply_of(await text(client, "anyone there?")) == ""
        await asyncio.sleep(1.1)
        assert (await messages(client))["mode"] == "clara"
        assert reply_of(await text(client, "what are the office hours?"))
        assert [e.reason for e in await spine.events(EventKind.TAKEOVER_ENDED)] == ["idle"]
    finally:
        await client.aclose()
        await context.sms.drain()
        await context.http.aclose()


async def test_pages_show_the_conversation_and_its_controls(app, people):
    client, _ = app
    await text(client, "what are the office hours?")
    listing = await client.get("/admin/conversations", headers=people["p_priya"])
    assert "Marcus Johnson" in listing.text and MARCUS not in listing.text
    page = await client.get("/admin/conversations/p_marcus", headers=people["p_priya"])
    assert "what are the office hours?" in page.text and "/admin/api/conversations/p_marcus/takeover" in page.text
    viewer = await client.get("/admin/conversations/p_marcus", headers=people["p_sam"])
    assert "what are the office hours?" in viewer.text and "/takeover" not in viewer.text


async def test_email_joins_the_same_conversation_and_staff_answer_there(spine, make_channels, people):
    from tests.support.console_helpers import actor_pool
    from tests.support.gateway_helpers import text as sms

    channels = await make_channels(actor_pool(spine))
    await sms(channels.client, "what are the office hours?")
    answered = await channels.email("Marcus Johnson <marcus@example.com>", "Is the gym open on Sunday?")
    assert answered.status_code == 200, answered.text
    convo = await messages(channels.client, headers=people["p_priya"])
    assert [(m["author"], m["channel"]) for m in convo["messages"]] == [
        ("person", "sms"), ("clara", "sms"), ("person", "email"), ("clara", "email")]
    assert convo["last_channel"] == "email"
    sent = await channels.client.post(f"{CONVO}/p_marcus/messages", json={"text": "Yes, 24/7 with your fob."},
                                      headers=people["p_priya"])
    assert sent.json()["notification"]["channel"] == "email"  # their last channel
