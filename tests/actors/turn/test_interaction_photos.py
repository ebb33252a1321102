"""MMS photos answering request_photo land on the work order that asked, within the caller's
own units only, once (offline model, no Ray)."""
from __future__ import annotations

from actors.dispatcher.dispatcher import Dispatcher
from actors.turn.interaction import run_interaction
from spine.context import Channel
from spine.records import EventKind
from spine.toolspec import ToolInvocation
from tests.support.turn_helpers import envelope
from tools.caller import load_caller
from tools.photos import attach_requested_photos

MARCUS, CARLOS = "+12065551001", "+13035552020"
PHOTO = "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1"


async def request_photo_on_wo7(spine) -> None:
    marcus = await load_caller(spine, "p_marcus", "pf_yale", "ix_ask", Channel.SMS)
    result = await Dispatcher(spine).run(ToolInvocation(name="request_photo", tool_use_id="t1", input={
        "reason": "the base of the toilet", "work_order_id": "WO-7"}), marcus)
    assert not result.is_error, result.reason
    assert (await spine.get_work_order("wo_7")).photo_request == "the base of the toilet"


def with_media(env, *urls):
    return env.model_copy(update={"media_urls": list(urls)})


async def test_an_mms_answering_a_photo_request_is_attached_to_its_work_order(offline_deps, spine):
    await request_photo_on_wo7(spine)
    result = await run_interaction(offline_deps, with_media(envelope(MARCUS, "here you go"), PHOTO))
    wo = await spine.get_work_order("wo_7")
    assert wo.photo_urls == [PHOTO] and wo.photo_request is None
    assert "photo(s) received by MMS for: the base of the toilet" in wo.notes[-1].text
    assert [e.reason for e in result.trace.events if e.kind == EventKind.PHOTOS_ATTACHED] == ["WO-7"]
    assert result.reply


async def test_media_with_no_request_waiting_attaches_nothing(offline_deps, spine):
    result = await run_interaction(offline_deps, with_media(envelope(MARCUS, "look at this"), PHOTO))
    assert (await spine.get_work_order("wo_7")).photo_urls == []
    assert not [e for e in result.trace.events if e.kind == EventKind.PHOTOS_ATTACHED]


async def test_a_tenant_of_another_unit_cannot_attach_to_it(offline_deps, spine):
    await request_photo_on_wo7(spine)
    await run_interaction(offline_deps, with_media(envelope(CARLOS, "photo"), PHOTO))
    wo = await spine.get_work_order("wo_7")
    assert wo.photo_urls == [] and wo.photo_request == "the base of the toilet"  # still waiting for Marcus's unit


async def test_the_same_photo_twice_is_attached_once(spine):
    await request_photo_on_wo7(spine)
    marcus = await load_caller(spine, "p_marcus", "pf_yale", "ix_1", Channel.SMS)
    assert (await attach_requested_photos(spine, marcus, [PHOTO])).display_id == "WO-7"
    assert await attach_requested_photos(spine, marcus, [PHOTO]) is None  # nothing is waiting any more
    assert (await spine.get_work_order("wo_7")).photo_urls == [PHOTO]
