"""The Dispatcher's prefetch cache against a store across a network (moto behind a delaying
proxy): a call served from a lookup reports what it waited, so the trace shows what was hidden."""
from __future__ import annotations

import uuid

from actors.dispatcher.dispatcher import Dispatcher
from bench.delay_proxy import DelayProxy
from desk.portfolio.demo import seed
from spine.context import Channel
from spine.repo import Spine
from spine.store.dynamodb import DynamoStore
from spine.toolspec import ToolInvocation
from tools.caller import Caller


def _detail(tool_use_id: str) -> ToolInvocation:
    return ToolInvocation(name="get_work_order_detail", input={"work_order_id": "WO-7"}, tool_use_id=tool_use_id)


def _marcus(interaction_id: str) -> Caller:
    """Who and where only: the dispatcher derives the roles itself."""
    return Caller(person_id="p_marcus", property_id="pf_yale", org_id=None, interaction_id=interaction_id,
                  channel=Channel.SMS)


async def test_a_call_served_from_a_prefetch_reports_its_own_wait_not_the_lookups(moto_server):
    table = f"t-{uuid.uuid4().hex[:8]}"
    seeding = Spine(DynamoStore(table=table, endpoint_url=moto_server.endpoint_url, create_missing=True))
    await seed(seeding)
    await seeding.store.close()
    with DelayProxy(moto_server.endpoint_url, low_s=0.05, high_s=0.05) as proxy:
        spine = Spine(DynamoStore(table=table, endpoint_url=proxy.url))
        dispatcher = Dispatcher(spine)
        try:
            own = await dispatcher.run(_detail("t1"), _marcus("ix_own"))
            ahead = _marcus("ix_ahead")
            [lookup] = await dispatcher.prefetch([_detail("")], ahead)
            served = await dispatcher.run(_detail("t2"), ahead)
        finally:
            await spine.store.close()
    assert lookup["status"] == "unused" and not own.prefetched and not own.is_error
    assert served.prefetched and not served.is_error and served.content == own.content
    assert served.latency_ms < own.latency_ms / 2  # the gate's check, not the whole lookup again
