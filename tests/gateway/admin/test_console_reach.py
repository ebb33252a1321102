"""The console's reach (hardening 1, 2, 5, 6, 7): a conversation is a person's at one property; staff
read and act only on those at properties in their scope, however the person is related to other
properties or orgs; a takeover is of that conversation alone and ends when its taker loses access;
the conversation records only what was queued; routine staff messages keep the contact window."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from spine.records import EventKind
from tests.support.console_helpers import console_app, staff
from tests.support.gateway_helpers import MARCUS, YALE, text

CONVO = "/admin/api/conversations"
BEACON, CAPITOL, CARLOS = "+12065550300", "+13035550200", "+13035552020"


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.sms.drain()
    await context.http.aclose()


@pytest.fixture
async def people(spine):
    return await staff(spine, "p_priya", "p_nora")


def said(convo: dict) -> list[str]:
    return [m["text"] for m in convo["messages"] if m["author"] == "person"]


def replied(exchange) -> str:
    assert exchange.status_code == 200, exchange.error
    return " ".join(exchange.messages)


async def test_nora_reads_marcus_at_beacon_and_never_his_yale_history(app, people):
    await text(app, "what is my balance?")  # at Yale, where he rents
    await text(app, "is the Beacon lobby open on sundays?", to=BEACON)
    nora = people["p_nora"]
    convo = await app.get(f"{CONVO}/p_marcus", headers=nora)
    assert convo.status_code == 200, convo.text
    body = convo.json()
    assert body["property_id"] == "pf_beacon" and said(body) == ["is the Beacon lobby open on sundays?"]
    assert "balance" not in convo.text
    assert (await app.get(f"{CONVO}/p_marcus", params={"property_id": "pf_yale"}, headers=nora)).status_code == 404
    listed = (await app.get(CONVO, headers=nora)).json()["conversations"]
    assert [(c["person_id"], c["property_id"]) for c in listed] == [("p_marcus", "pf_beacon")]
    priya = (await app.get(f"{CONVO}/p_marcus", params={"property_id": "pf_yale"}, headers=people["p_priya"])).json()
    assert said(priya) == ["what is my balance?"]  # org-wide: each conversation, one at a time


async def test_priya_never_reads_or_takes_over_carlos_at_another_orgs_property(app, people, spine):
    await text(app, "I'm at the Capitol job, gate code?", from_=CARLOS, to=CAPITOL)
    priya = people["p_priya"]
    # Carlos rents at Yale (her org): that conversation is hers to read, the Capitol one never.
    mine = (await app.get(f"{CONVO}/p_carlos", headers=priya)).json()
    assert mine["property_id"] == "pf_yale" and mine["messages"] == []
    for action in ("takeover", "messages"):
        refused = await app.post(f"{CONVO}/p_carlos/{action}", params={"property_id": "pf_capitol"},
                                 json={"text": "hi"}, headers=priya)
        assert refused.status_code == 404, refused.text
    taken = await app.post(f"{CONVO}/p_carlos/takeover", headers=priya)
    assert taken.json()["property_id"] == "pf_yale"
    answered = await text(app, "gate code please, I'm at the gate", from_=CARLOS, to=CAPITOL)
    assert replied(answered), "Clara stopped answering Carlos at another org's property"
    assert await spine.events(EventKind.TAKEOVER_HELD) == []


async def test_a_takeover_at_beacon_leaves_clara_answering_at_yale(app, people, spine):
    await text(app, "hello Beacon", to=BEACON)
    sent = await app.post(f"{CONVO}/p_marcus/messages", json={"text": "Nora here", "urgent": True},
                          headers=people["p_nora"])
    assert sent.status_code == 200 and sent.json()["property_id"] == "pf_beacon"
    row = await spine.get_outbox(sent.json()["notification"]["outbox_id"])
    assert (row.from_address, row.to_address) == (BEACON, MARCUS)  # from the property in her scope
    assert replied(await text(app, "what are the office hours?", to=YALE)), "Clara went silent at Yale"
    assert replied(await text(app, "thanks Nora", to=BEACON)) == ""  # held at Beacon


async def test_a_takeover_ends_when_its_taker_loses_access(app, people, spine):
    await text(app, "hello Beacon", to=BEACON)
    assert (await app.post(f"{CONVO}/p_marcus/takeover", headers=people["p_nora"])).json()["mode"] == "staff"
    for role in await spine.roles_of("p_nora"):
        await spine.put_role(role.model_copy(update={"active": False}))
    answer = await text(app, "my new door code is 4471", to=BEACON)
    assert replied(answer), "a message was held for a staff member who lost access"
    assert not [m for m in await spine.outbox(limit=500) if m.recipient_person_id == "p_nora"]
    [ended] = await spine.events(EventKind.TAKEOVER_ENDED)
    assert ended.reason == "access-lost" and ended.detail["staff_person_id"] == "p_nora"


async def test_a_reused_idempotency_key_shows_only_what_was_queued(app, people, spine):
    await text(app, "hi")
    headers = {**people["p_priya"], "Idempotency-Key": "k1"}
    first = await app.post(f"{CONVO}/p_marcus/messages", json={"text": "first words", "urgent": True}, headers=headers)
    again = await app.post(f"{CONVO}/p_marcus/messages", json={"text": "other words", "urgent": True}, headers=headers)
    assert first.json()["notification"]["outbox_id"] == again.json()["notification"]["outbox_id"]
    convo = (await app.get(f"{CONVO}/p_marcus", headers=people["p_priya"])).json()
    staff_said = [m["text"] for m in convo["messages"] if m["author"] == "staff"]
    assert staff_said == ["first words"]
    assert (await spine.get_outbox(first.json()["notification"]["outbox_id"])).body == "first words"


@pytest.mark.parametrize(("urgent", "status"), [(False, "deferred"), (True, "queued")])
async def test_a_routine_staff_message_keeps_the_contact_window(app, people, spine, urgent, status):
    await text(app, "hi")
    night = datetime(2026, 12, 2, 23, 30, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)
    spine.clock = lambda: night
    sent = await app.post(f"{CONVO}/p_marcus/messages", json={"text": "we'll come by", "urgent": urgent},
                          headers=people["p_priya"])
    assert sent.json()["notification"]["status"] == status


async def test_the_operators_takeover_holds(app, spine):
    from tests.support.admin_helpers import AUTH

    await text(app, "hi")
    assert (await app.post(f"{CONVO}/p_marcus/takeover", headers=AUTH)).json()["mode"] == "staff"
    assert replied(await text(app, "are you there?")) == ""  # held for the operator, who never loses access
