"""The inbound log (gateway.inbound_log), the one writer of every channel's inbound record."""
from __future__ import annotations

import pytest

from gateway.inbound_log import InboundLog
from spine.records import InboundMessage, InboundStatus
from tests.support.gateway_helpers import MARCUS


async def test_the_log_only_ends_a_record_in_a_final_state(spine):
    log = InboundLog(spine)
    record = InboundMessage(id="SMx", channel="sms", from_address=MARCUS, to_address="+12065550100", body="hi")
    assert await log.accept(record) and not await log.accept(record)  # a redelivery is seen as one
    with pytest.raises(ValueError, match="ends answered, blocked, held or failed"):
        await log._end(record, InboundStatus.ACCEPTED)
    ended = await log.answered(record, "hello")
    assert (await spine.get_inbound("SMx")).model_dump() == ended.model_dump()
    assert [m.id for m in await spine.inbound_with_status(InboundStatus.ACCEPTED)] == []
