"""Route an inbound and assemble its prompt exactly as the agent loop does."""
from __future__ import annotations

import itertools
from datetime import UTC, datetime

from prompts.assemble import AssembledPrompt, assemble_prompt
from spine.context import ActivePointers, ActiveWorkOrder, Channel, PersonContext
from spine.repo import Spine
from spine.router import route_inbound
from spine.routing_types import L1Result, RoutingDecision
from tools.caller import load_caller
from tools.catalog import facility_tools, role_tools_for

_ids = itertools.count()


async def routed(spine: Spine, phone: str, message: str = "hi", property_id: str = "pf_yale") -> RoutingDecision:
    return await route_inbound(spine, channel=Channel.SMS, wire_address=phone, property_id=property_id,
                               message=message, interaction_id=f"pt-{next(_ids)}")


async def assembled(spine: Spine, phone: str, *, message: str = "hi", property_id: str = "pf_yale",
                    context: PersonContext | None = None, l1: L1Result | None = None) -> AssembledPrompt:
    decision = await routed(spine, phone, message, property_id)
    caller = await load_caller(spine, decision.person_id, property_id, "pt-assemble")
    return assemble_prompt(l1=l1 or decision.l1, property=await spine.get_property(property_id),
                           facility_tools=facility_tools(), role_tools=role_tools_for(caller),
                           context=context or PersonContext(person_id=decision.person_id or ""))


def marcus_context() -> PersonContext:
    """A refreshed, person-specific context: none of it may appear above the cache breakpoint."""
    return PersonContext(
        person_id="p_marcus", refreshed_at=datetime(2026, 5, 12, 9, 14, tzinfo=UTC),
        summary="Marcus is primary tenant of unit 204 since 2024. Texted about the flapper last week.",
        active=ActivePointers(
            active_work_orders=[ActiveWorkOrder(id="wo_7", display_id="WO-7", status="in_progress",
                                                brief="flapper ordered, Mike Torres due at 3pm")],
            active_renewal_workflow_id="rw_yale_204_2027", last_channel=Channel.SMS,
            last_interaction_at=datetime(2026, 5, 12, 9, 14, tzinfo=UTC),
            last_interaction_id="int-marcus-0512"),
    )
