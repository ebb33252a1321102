"""A call's trace is written from several places at once (the server-tool webhook, a transfer's
TwiML routes, the call's end, on any replica): a line one of them adds is never lost to another's
stale copy (Spine.change_trace, compare-and-set)."""
from __future__ import annotations

import spine.keys as keys
from desk.transfer.progress import note
from spine.context import Channel
from spine.records import AgentTrace, EventKind
from spine.repo import Spine
from spine.transfer import Transfer
from tests.support.store_fixtures import WriterFirst

CALL = "voice-CAtracelines"


def _transfer() -> Transfer:
    return Transfer(id="tr_lines", call_sid="CAtracelines", interaction_id=CALL, property_id="pf_yale",
                    reason="wants a person")


async def test_a_line_written_meanwhile_by_another_route_is_kept(spine):
    await spine.put_trace(AgentTrace(interaction_id=CALL, channel=Channel.VOICE))

    async def ringing_meanwhile() -> None:  # the TwiML route of the same call, on another replica
        await note(spine, _transfer(), EventKind.TRANSFER_RINGING, "Mike Torres (on-call level 1)")

    racing = Spine(WriterFirst(spine.store, (keys.trace(CALL), keys.ITEM), ringing_meanwhile))
    await note(racing, _transfer(), EventKind.TRANSFER_STARTED, "normal: wants a person")
    trace = await spine.get_trace(CALL)
    assert trace is not None
    assert [e.kind for e in trace.events] == [EventKind.TRANSFER_RINGING, EventKind.TRANSFER_STARTED]


async def test_no_trace_no_line(spine):
    await note(spine, _transfer(), EventKind.TRANSFER_STARTED, "normal: wants a person")
    assert await spine.get_trace(CALL) is None
