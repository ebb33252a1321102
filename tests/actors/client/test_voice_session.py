"""A phone call as a session of the caller's PersonActor, without Ray: VoiceCalls over a HostPool of
two in-process hosts (real turns, offline model), the same pool the caller's texts go through."""
from __future__ import annotations

import json

from actors.client.calls import CallService as VoiceCalls
from actors.client.placement import Placer
from actors.client.pool import HostPool
from actors.config import RuntimeConfig
from actors.host.host import host_name, owner_id
from actors.protocol.keys import claimed_person
from actors.turn.call_opening import interaction_id_for
from spine.records import TranscriptEntry
from tests.support.actor_helpers import InProcess, RecordingRefresh, actor, envelope, real_host

YALE = "+12065550100"
MARCUS = "+12065551001"
STRANGER = "+13105557777"


def pool_and_calls(spine, clock, refresh: RecordingRefresh) -> tuple[HostPool, VoiceCalls]:
    hosts = [real_host(spine, clock, owner_id("t", host_name(i)), refresh=refresh) for i in range(2)]
    pool = HostPool(RuntimeConfig(namespace="t"), [InProcess(h) for h in hosts], None, spine)
    any_host = hosts[0].runtime.deps
    return pool, VoiceCalls(spine, any_host.tools, pool)


async def test_a_text_during_a_call_sees_the_work_order_the_call_filed(spine, clock):
    refresh = RecordingRefresh()
    pool, calls = pool_and_calls(spine, clock, refresh)
    start = await calls.start(caller_number=MARCUS, called_number=YALE, call_sid="CA1")
    assert start.person_id == "p_marcus"
    owner = actor(pool, "person:p_marcus")
    assert owner is not None and owner.opening is not None  # the call opened from his actor's Opening
    filed = await calls.run_webhook_tool(interaction_id_for("CA1"), "create_work_order",
                                         {"description": "the dishwasher is flooding the kitchen", "brief": "dishwasher"})
    assert filed is not None and not filed.is_error, filed
    wo = json.loads(filed.content)["work_order_id"]
    texted = await pool.submit(await Placer(spine).placed(envelope(None, "what's the status of my work order?",
                                                                   from_address=MARCUS)))
    assert texted.person_id == "p_marcus" and actor(pool, "person:p_marcus") is owner  # one actor for both
    assert wo in {w.display_id for w in owner.opening.context.active.active_work_orders}
    assert wo in texted.reply, texted.reply
    await calls.end(interaction_id_for("CA1"), [TranscriptEntry(role="user", text="my dishwasher is flooding"),
                                                 TranscriptEntry(role="agent", text=f"I filed {wo}.")])
    [(person, iid, said)] = refresh.calls  # one refresh for the call and the text together
    assert (person, iid) == ("p_marcus", interaction_id_for("CA1"))
    assert TranscriptEntry(role="user", text="what's the status of my work order?") in said
    assert TranscriptEntry(role="user", text="my dishwasher is flooding") in said
    clock.advance(400)
    for host in pool.hosts:
        await host.host.sweep_once()
    while owner.busy:
        import asyncio
        await asyncio.sleep(0.01)
    assert len(refresh.calls) == 1 and not owner.active  # the idle end did not refresh a second time


async def test_an_unknown_callers_call_is_a_session_of_their_numbers_address_actor(spine, clock):
    pool, calls = pool_and_calls(spine, clock, RecordingRefresh())
    start = await calls.start(caller_number=STRANGER, called_number=YALE, call_sid="CA2")
    assert start.person_id is None
    [info] = await pool.actors()  # the admin API's list: where the call opened
    assert (info.key, info.person_id) == ("addr:voice:" + STRANGER, None)
    addr = actor(pool, info.key)
    hours = await calls.run_webhook_tool(interaction_id_for("CA2"), "get_property_hours", {})
    assert hours is not None and not hours.is_error, hours  # a facility tool: for unknown callers too
    units = await calls.run_webhook_tool(interaction_id_for("CA2"), "get_available_units", {})
    assert units is not None and units.decision == "refused"  # a prospect's: they are no Person
    assert [a.key for a in await pool.actors()] == [info.key] and actor(pool, info.key) is addr
    await calls.end(interaction_id_for("CA2"), [TranscriptEntry(role="user", text="what are your hours?")])
    assert [a.key for a in await pool.actors()] == [info.key]  # its end went there too, and made no Person


async def test_a_caller_minted_a_prospect_during_the_call_is_one_person_for_the_call_and_their_texts(spine, clock):
    refresh = RecordingRefresh()
    pool, calls = pool_and_calls(spine, clock, refresh)
    iid = interaction_id_for("CA3")
    await calls.start(caller_number=STRANGER, called_number=YALE, call_sid="CA3")
    assert actor(pool, "addr:voice:" + STRANGER) is not None
    # While on the phone, they text the property: the router mints them a prospect.
    texted = await pool.submit(await Placer(spine).placed(envelope(None, "do you have 2BR units next month?",
                                                                   from_address=STRANGER)))
    minted = texted.person_id
    assert minted is not None and await claimed_person(spine, "voice", STRANGER) == minted
    # The call's next tool is theirs now: their number's address actor moves it to the Person's.
    units = await calls.run_webhook_tool(iid, "get_available_units", {})
    assert units is not None and not units.is_error, units
    person = actor(pool, "person:" + minted)
    assert person is not None and person.active and person.opening is not None
    await calls.end(iid, [TranscriptEntry(role="user", text="I'd like to see a two bedroom")])
    [(who, ended, said)] = refresh.calls  # the call's end ended the Person's interaction
    assert (who, ended) == (minted, iid) and TranscriptEntry(role="user", text="I'd like to see a two bedroom") in said
    later = await pool.submit(await Placer(spine).placed(envelope(None, "can I tour it saturday?",
                                                                  from_address=STRANGER)))
    assert later.person_id == minted and actor(pool, "person:" + minted) is person  # the same Person, same actor
    said_on_the_call = [m for m in await spine.messages_of(minted, "pf_yale") if m.interaction_id == iid]
    assert [m.text for m in said_on_the_call] == ["I'd like to see a two bedroom"]  # in their conversation


async def test_a_call_that_sets_an_eta_lists_the_tenants_notice_in_its_trace(spine, clock):
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from spine.verification import CallVerification, VerificationMethod

    spine.clock = lambda: datetime(2026, 12, 2, 15, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)
    _, calls = pool_and_calls(spine, clock, RecordingRefresh())
    # Mike's call verified (as the voice webhook records a STIR/SHAKEN A verdict): an ETA is not
    # taken from a caller ID alone.
    await spine.put_call_verification(CallVerification(
        interaction_id=interaction_id_for("CA_eta"), person_id="p_mike", method=VerificationMethod.STIR_SHAKEN,
        evidence="TN-Validation-Passed-A"))
    await calls.start(caller_number="+13035551500", called_number=YALE, call_sid="CA_eta")
    done = await calls.run_webhook_tool(interaction_id_for("CA_eta"), "add_eta_note",
                                        {"work_order_id": "WO-7", "eta": "4pm"})
    assert done is not None and not done.is_error, done
    await calls.end(interaction_id_for("CA_eta"), [TranscriptEntry(role="user", text="I'll be at WO-7 at 4pm")])
    trace = await spine.get_trace(interaction_id_for("CA_eta"))
    assert [(n.kind, n.recipient_person_id, n.status) for n in trace.notifications] == [("notify", "p_marcus", "queued")]
