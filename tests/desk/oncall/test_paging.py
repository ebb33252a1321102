"""The on-call ladder, driven with an injected clock: level 1 at once, level 2 after the ack
timeout, the repeats, exhaustion, ACK stopping it, and a step taken once whoever drives it."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest

import spine.keys as keys
from desk.oncall.ack import ack_by_text, acknowledge, pass_page
from desk.oncall.paging import PageRequest, advance_page, start_page
from desk.outbound.queue import NotificationKind
from spine.identity import utcnow
from spine.oncall import TAKEN_PAGE_KEPT_S, OnCallPlan, PageStatus, PageVia
from spine.records import EventKind, OutboxStatus


def _request(n: int = 1, **extra) -> PageRequest:
    return PageRequest(page_id=f"pg_test_{n}", property_id="pf_yale", reason="gas smell", unit="204",
                       work_order_display_id="WO-900", reporter_person_id="p_marcus",
                       interaction_id=f"int_page_{n}", **extra)


async def _rows(spine, page_id):
    rows = await spine.outbox(OutboxStatus.PENDING, limit=500)
    return sorted((r.recipient_person_id, r.channel) for r in rows if r.page_id == page_id)


async def _tick(spine, now):
    for page, version in await spine.pages_due(now):
        await advance_page(spine, page, version, now=now)


async def test_a_page_texts_and_calls_level_one_at_once_and_level_two_after_the_timeout(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    started = await start_page(spine, _request(), now=t0)
    assert started.status == PageStatus.PAGING and started.paged == ["Mike Torres"] and started.levels == 2
    assert {n.kind for n in started.notifications} == {NotificationKind.PAGE}
    assert await _rows(spine, "pg_test_1") == [("p_mike", "sms"), ("p_mike", "voice")]
    await _tick(spine, t0 + timedelta(seconds=4.9))
    assert await _rows(spine, "pg_test_1") == [("p_mike", "sms"), ("p_mike", "voice")]
    await _tick(spine, t0 + timedelta(seconds=5.0))
    assert await _rows(spine, "pg_test_1") == [("p_mike", "sms"), ("p_mike", "voice"),
                                               ("p_priya", "sms"), ("p_priya", "voice")]
    sms = next(r for r in await spine.outbox(limit=500) if r.id == "page-pg_test_1-0-p_mike-sms")
    page = await spine.get_page("pg_test_1")
    assert page.code in sms.body and "WO-900" in sms.body and "204" in sms.body and "Reply ACK" in sms.body
    assert [e.detail["level"] for e in await spine.events(EventKind.ONCALL_PAGED)] == [2, 1]


async def test_the_ladder_repeats_then_is_exhausted_and_tells_managers_and_the_reporter(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5,
                                           repeats=1))
    await start_page(spine, _request(), now=t0)
    for n in range(1, 4):  # steps 1..3: priya, mike again, priya again
        await _tick(spine, t0 + timedelta(seconds=5 * n))
    assert (await spine.get_page("pg_test_1")).status == PageStatus.PAGING
    await _tick(spine, t0 + timedelta(seconds=20))
    page = await spine.get_page("pg_test_1")
    assert page.status == PageStatus.EXHAUSTED and page.step == 3
    rows = {r.id: r for r in await spine.outbox(limit=500)}
    assert sum(1 for i in rows if i.startswith("page-pg_test_1-") and i.endswith("-sms")) == 4
    reporter = rows["page-pg_test_1-exhausted-reporter"]
    assert "911" in reporter.body and reporter.recipient_person_id == "p_marcus"
    assert "page-pg_test_1-exhausted-p_priya" in rows  # the org's pm
    assert len(await spine.events(EventKind.ONCALL_EXHAUSTED)) == 1
    await _tick(spine, t0 + timedelta(seconds=60))
    assert len([i for i in await spine.outbox(limit=500) if i.id.startswith("page-pg_test_1-")]) == len(
        [i for i in rows if i.startswith("page-pg_test_1-")])


async def test_ack_by_text_stops_the_ladder_and_tells_the_reporter_who_has_it(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    await start_page(spine, _request(), now=t0)
    assert await ack_by_text(spine, "p_priya", "ACK") is None  # not paged yet: an ordinary message
    outcome = await ack_by_text(spine, "p_mike", "ack")
    assert outcome is not None and outcome.acknowledged and "gas smell" in outcome.reply
    await _tick(spine, t0 + timedelta(seconds=30))
    page = await spine.get_page("pg_test_1")
    assert page.status == PageStatus.ACKNOWLEDGED and page.acknowledged_by == "p_mike" and page.step == 0
    told = await spine.get_outbox("page-pg_test_1-acknowledged-reporter")
    assert told.body.startswith("Mike from maintenance has it") and told.recipient_person_id == "p_marcus"
    assert not [r for r in await spine.outbox(limit=500) if r.recipient_person_id == "p_priya"]
    assert len(await spine.events(EventKind.ONCALL_ACKNOWLEDGED)) == 1
    again = await acknowledge(spine, "pg_test_1", "p_priya", PageVia.CALL)
    assert not again.acknowledged and "Mike Torres" in again.reply
    late = await ack_by_text(spine, "p_mike", "ACK")  # his own, already taken: not a second acknowledgement
    assert late is None or not late.acknowledged


async def test_an_ack_after_someone_else_took_the_page_is_told_who_has_it(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    await start_page(spine, _request(), now=t0)
    await _tick(spine, t0 + timedelta(seconds=5))
    assert (await ack_by_text(spine, "p_priya", "ACK")).acknowledged
    told = await ack_by_text(spine, "p_mike", "ACK")
    assert told is not None and not told.acknowledged and "Priya Shah has already taken" in told.reply


async def test_several_open_pages_and_a_bare_ack_ask_which_code(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await start_page(spine, _request(1), now=t0)
    await start_page(spine, _request(2), now=t0)
    pages = [await spine.get_page("pg_test_1"), await spine.get_page("pg_test_2")]
    asked = await ack_by_text(spine, "p_mike", "ACK")
    assert not asked.acknowledged and all(p.code in asked.reply for p in pages)
    took = await ack_by_text(spine, "p_mike", f"ACK {pages[1].code}")
    assert took.acknowledged and took.page.id == "pg_test_2"
    assert (await spine.get_page("pg_test_1")).status == PageStatus.PAGING


async def test_two_open_pages_of_one_person_never_share_a_code_so_each_acks_by_code(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    for n in (1, 2):  # the same random draws for both: the second must not take the first one's code
        await start_page(spine, _request(n), now=t0, rng=random.Random(24))
    first, second = await spine.get_page("pg_test_1"), await spine.get_page("pg_test_2")
    assert first.code != second.code
    took = await ack_by_text(spine, "p_mike", f"ACK {second.code}")
    assert took.acknowledged and took.page.id == "pg_test_2"
    await start_page(spine, _request(3), now=t0, rng=random.Random(24))  # pg_test_1 is still open: its code stays its own
    assert (await spine.get_page("pg_test_3")).code not in {first.code}


async def test_a_step_is_taken_once_by_racing_drivers_and_a_pass_pages_the_next_level_now(seeded_sqlite):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=60))
    await start_page(spine, _request(), now=t0)
    assert await pass_page(spine, "pg_test_1", "p_priya", now=t0) is False  # not on the level being paged
    assert await pass_page(spine, "pg_test_1", "p_mike", now=t0)
    stale = await spine.read_page("pg_test_1")
    await advance_page(spine, *stale, now=t0)
    assert await advance_page(spine, *stale, now=t0) == []  # the same version again: the CAS refuses it
    assert (await spine.get_page("pg_test_1")).step == 1
    assert len(await spine.events(EventKind.ONCALL_PAGED)) == 2


async def test_no_plan_pages_nobody_and_says_so(seeded_sqlite):
    spine = seeded_sqlite
    await spine.clear_oncall_plan("pf_yale")
    started = await start_page(spine, _request())
    assert started.status == PageStatus.NONE and started.paged == []
    assert await spine.get_page("pg_test_1") is None
    assert len(await spine.events(EventKind.ONCALL_NO_PLAN)) == 1


async def test_one_turn_pages_once_and_an_sms_opt_out_is_still_called(seeded_sqlite):
    from spine.records import OptOut
    spine = seeded_sqlite
    await spine.set_opt_out(OptOut(address="+13035551500", opted_out=True, keyword="STOP"))
    first = await start_page(spine, _request(1))
    second = await start_page(spine, _request(1).model_copy(update={"page_id": "pg_other"}))
    assert second.page_id == first.page_id == "pg_test_1" and await spine.get_page("pg_other") is None
    rows = {r.channel: r for r in await spine.outbox(OutboxStatus.PENDING, limit=500) if r.page_id == "pg_test_1"}
    assert set(rows) == {"voice"}  # the text is suppressed, the call waits to be placed
    assert (await spine.get_outbox("page-pg_test_1-0-p_mike-sms")).status == OutboxStatus.BLOCKED


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_reporter_hears_911_in_their_language(seeded_sqlite, language):
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"]], ack_timeout_s=5, repeats=0))
    await start_page(spine, _request(language=language), now=t0)
    await _tick(spine, t0 + timedelta(seconds=5))
    body = (await spine.get_outbox("page-pg_test_1-exhausted-reporter")).body
    assert "911" in body and (("llame" in body) if language == "es" else ("call 911" in body))


async def test_exhaustion_claims_the_managers_were_told_only_when_a_message_to_one_was_queued(seeded_sqlite):
    from desk.oncall.paging import managers_of
    from spine.context import Channel
    from spine.records import OptOut

    spine, t0 = seeded_sqlite, utcnow()
    for manager_id in await managers_of(spine, "pf_yale", "org_propflow"):
        for phone in (await spine.get_person(manager_id)).phones():
            await spine.set_opt_out(OptOut(address=phone, opted_out=True, keyword="STOP", channel=Channel.SMS))
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"]], ack_timeout_s=5, repeats=0))
    await start_page(spine, _request(), now=t0)
    await _tick(spine, t0 + timedelta(seconds=10))
    assert (await spine.get_page("pg_test_1")).status == PageStatus.EXHAUSTED
    body = (await spine.get_outbox("page-pg_test_1-exhausted-reporter")).body
    assert "911" in body and "have been told" not in body and "could not be reached" in body


async def test_a_page_taken_over_an_hour_ago_leaves_the_pages_its_people_hold(seeded_sqlite):
    """Else every page ever held would be read on each new page and each ACK (PAGESHELD grows)."""
    spine, now = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike", "p_priya"]], ack_timeout_s=5))
    old_start = now - timedelta(seconds=TAKEN_PAGE_KEPT_S + 60)
    await start_page(spine, _request(1), now=old_start)
    await acknowledge(spine, "pg_test_1", "p_priya", PageVia.SMS, now=old_start + timedelta(seconds=30))
    await start_page(spine, _request(2), now=now - timedelta(seconds=60))
    await acknowledge(spine, "pg_test_2", "p_priya", PageVia.SMS, now=now - timedelta(seconds=30))
    await start_page(spine, _request(3), now=now)
    assert [p.id for p in await spine.pages_held_by("p_mike")] == ["pg_test_2", "pg_test_3"]
    assert sorted(i.sk for i in await spine.store.query(keys.pages_held("p_mike"))) == ["pg_test_2", "pg_test_3"]
    assert (await spine.get_page("pg_test_1")).acknowledged_by == "p_priya"  # the page itself is kept
    told = await ack_by_text(spine, "p_priya", "ACK")  # a late ACK still takes the open page
    assert told is not None and told.acknowledged and told.page.id == "pg_test_3"


async def test_a_page_skips_whoever_may_no_longer_be_on_call(seeded_sqlite):
    # Issue 40 item 10: a plan set before Mike's vendor ended still names him; the page does not.
    spine, t0 = seeded_sqlite, utcnow()
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    vendor = await spine.get_vendor("v_inhouse")
    await spine.put_vendor(vendor.model_copy(update={"active": False}))
    started = await start_page(spine, _request(), now=t0)
    assert started.paged == ["Priya Shah"] and started.levels == 1
    assert await _rows(spine, "pg_test_1") == [("p_priya", "sms"), ("p_priya", "voice")]


async def test_the_ladder_runs_on_the_stores_clock_as_the_contact_window_does(seeded_sqlite):
    """One clock: a page started, stepped by the scheduler's tick and taken, each at `spine.clock()`
    when no `now` is given, so a test (or an eval) that moves the store's clock moves the ladder."""
    from actors.control.scheduler import Ladders

    spine, now = seeded_sqlite, {"t": utcnow() - timedelta(days=400)}
    spine.clock = lambda: now["t"]
    t0 = now["t"]
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    await start_page(spine, _request())
    page = await spine.get_page("pg_test_1")
    assert (page.created_at, page.next_due) == (t0, t0 + timedelta(seconds=5))  # level 1 paged at once
    ladders = Ladders(spine, None)
    await ladders.tick()
    assert await _rows(spine, "pg_test_1") == [("p_mike", "sms"), ("p_mike", "voice")]  # not due yet
    now["t"] = t0 + timedelta(seconds=5)
    await ladders.tick()
    assert ("p_priya", "sms") in await _rows(spine, "pg_test_1")
    outcome = await ack_by_text(spine, "p_mike", "ACK")
    assert outcome.acknowledged and (await spine.get_page("pg_test_1")).acknowledged_at == now["t"]
    assert [p.id for p in await spine.pages_held_by("p_mike")] == ["pg_test_1"]  # taken a moment ago
    now["t"] += timedelta(seconds=TAKEN_PAGE_KEPT_S + 1)
    assert await spine.pages_held_by("p_mike") == []
