"""A page in a real (private) Ray with its real timing: the shared gateway on Serve, its one
PagingScheduler, the Twilio stand-in. Level 1's text and call leave with the turn's end, long before
the ack timeout; with a 5 s timeout level 2 is paged after it, never before; the scheduler killed
then (Ray restarts it and it goes on from the store), the ladder's second pass pages level 1 again,
once, not at once; ACK stops it. What is asserted is order and "never early": how late a loaded
tick sends is a figure (printed here, measured alone by bench/oncall.py), and a CI machine twice as
slow as this one once took 8.75 s for a 5 s timeout."""
from __future__ import annotations

import asyncio
import time

import httpx
import pytest

import spine.keys as keys
from actors.control.scheduler import SCHEDULER_NAME, TICK_S
from gateway.cli.sms import send_sms
from spine.oncall import OnCallPlan, Page, PageStatus
from tests.support.serve_helpers import SHARED_ACCOUNT_SID, SHARED_AUTH_TOKEN, SHARED_NAMESPACE

pytestmark = pytest.mark.ray

JORDAN, MIKE, PRIYA, YALE = "+12065551002", "+13035551500", "+12065550150", "+12065550100"
ACK_TIMEOUT_S = 5
# Level 1 leaves with the turn, not after a timeout: well within one, however loaded the machine.
LEVEL1_LAG_S = ACK_TIMEOUT_S / 2
# What loaded cores may add to a tick's own work (store reads and writes, the Twilio post).
LOADED_MARGIN_S = 2.0


async def _text(http: httpx.AsyncClient, from_: str, body: str):
    return await send_sms(http, base_url=str(http.base_url), auth_token=SHARED_AUTH_TOKEN, from_=from_, to=YALE,
                          body=body, account_sid=SHARED_ACCOUNT_SID)


def _first_at(records, to: str, since: float, text: str = "") -> float | None:
    found = [r.at for r in records() if r.to == to and r.at >= since and text in r.form.get("Body", text)]
    return min(found) if found else None


async def _this_page(spine, plan: OnCallPlan) -> Page:
    """The page this test started (its plan is the test's own): other tests on the shared gateway
    page Mike too, and only this page's texts (its code) and calls (its id) are timed and counted."""
    for _ in range(100):
        held = [await spine.get_page(i.sk) for i in await spine.store.query(keys.pages_held("p_mike"))]
        mine = [p for p in held if p is not None and p.plan == plan and p.status == PageStatus.PAGING]
        if mine:
            return mine[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the test's page is not on record")


async def _until(probe, timeout_s: float) -> float:
    deadline = time.monotonic() + timeout_s
    while (at := probe()) is None:
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)
    return at


async def test_a_page_leaves_at_once_escalates_after_the_timeout_across_a_scheduler_restart(serve_gateway,
                                                                                           ray_session):
    spine, twilio = serve_gateway.spine(), serve_gateway.twilio
    previous = await spine.get_oncall_plan("pf_yale")
    plan = OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=ACK_TIMEOUT_S, repeats=1)
    await spine.put_oncall_plan(plan)
    try:
        async with httpx.AsyncClient(base_url=serve_gateway.url, timeout=30.0) as http:
            since = time.monotonic()
            reply = await _text(http, JORDAN, "I smell gas in my kitchen")
            ended = time.monotonic()
            assert "I've alerted the on-call team" in reply.messages[0]
            page = await _this_page(spine, plan)
            mark = f"ACK {page.code} "  # in each of its texts

            def calls() -> list:
                return [c for c in twilio.calls if page.id in c.form.get("Url", "")]

            sms_at = await _until(lambda: _first_at(twilio.accepted, MIKE, since, mark), 5)
            call_at = await _until(lambda: _first_at(calls, MIKE, since), 5)
            assert sms_at - ended < LEVEL1_LAG_S and call_at - ended < LEVEL1_LAG_S
            level2 = await _until(lambda: _first_at(twilio.accepted, PRIYA, since, mark), 4 * ACK_TIMEOUT_S)
            print(f"level 2 paged {level2 - sms_at:.2f} s after level 1 (its timeout {ACK_TIMEOUT_S} s, a tick "
                  f"{TICK_S} s; level 1's text {sms_at - since:.2f} s after the inbound)")
            # Level 2's timeout runs from level 1's step, taken during the turn: never early.
            assert level2 - since >= ACK_TIMEOUT_S, level2 - since
            assert _first_at(twilio.accepted, MIKE, sms_at + 0.01, mark) is None  # level 2 before level 1 again
            # Kill between levels, not mid-send: Priya's call, posted just after her text, is in (a
            # send cut mid-post is recovered after INTERRUPTED_AFTER_S, tests/gateway/test_outbox_interrupted.py).
            await _until(lambda: _first_at(calls, PRIYA, since), 5)
            ray_session.kill(ray_session.get_actor(SCHEDULER_NAME, namespace=SHARED_NAMESPACE), no_restart=False)
            again = await _until(lambda: _first_at(twilio.accepted, MIKE, level2, mark), 30)
            # The second pass comes after level 2's own timeout, which runs from level 2's step; its
            # text reached the stand-in up to a loaded tick after that step (3.97 s was seen in a
            # full suite), so a restarted scheduler that re-paged at once still fails this.
            assert again - level2 >= ACK_TIMEOUT_S - LOADED_MARGIN_S, again - level2
            assert len([c for c in calls() if c.to == MIKE]) == 2  # once per pass
            assert len([c for c in calls() if c.to == PRIYA]) == 1  # not again after restart
            ack = await _text(http, PRIYA, "ACK")
            assert ack.messages[0].startswith("You have the page")
            told = await _until(lambda: _first_at(twilio.accepted, JORDAN, since, "has it"), 5)
            assert told > again
            pages = [p for p in [await spine.get_page(i.sk) for i in await spine.store.query(keys.pages_held("p_priya"))]
                     if p is not None and p.acknowledged_by == "p_priya"]
            assert [p.status for p in pages] == [PageStatus.ACKNOWLEDGED]
            await asyncio.sleep(6)  # past the next timeout: nothing more of this page leaves
            assert not [r for r in twilio.accepted() if r.at > told and pages[0].code in r.body]
    finally:
        if previous is not None:
            await spine.put_oncall_plan(previous)
        await spine.store.close()
