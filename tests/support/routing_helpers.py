"""Helpers for the routing tests: one inbound through route_inbound, and the catalog it loads."""
from __future__ import annotations

import itertools

from spine.context import Channel
from spine.repo import Spine
from spine.router import route_inbound
from spine.routing_types import RoutingDecision
from tools.caller import load_caller
from tools.catalog import role_tools_for

YALE, CAPITOL = "pf_yale", "pf_capitol"
_ids = itertools.count()


async def route(spine: Spine, phone: str, message: str, *, property_id: str = YALE,
                channel: Channel = Channel.SMS, **kwargs) -> RoutingDecision:
    return await route_inbound(spine, channel=channel, wire_address=phone, property_id=property_id,
                               message=message, interaction_id=f"it-{next(_ids)}", **kwargs)


async def role_tool_names(spine: Spine, decision: RoutingDecision) -> set[str]:
    caller = await load_caller(spine, decision.person_id, decision.property_id, "it-catalog")
    return {t.name for t in role_tools_for(caller)}


