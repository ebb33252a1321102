"""One hop to start a turn: a due Opening's authority re-check carries the turn's lookups.

A warm Opening needs the dispatcher only for its speculative lookups (one round trip); one due a
re-check (STALE_AFTER_S old, or after a turn that wrote) needs the person's authority too. Asked
through a `LookupsWithAuthority`, the Opening's refresh (actors.turn.opening) makes both one
call (ToolRunner.begin_turn), and the turn takes the lookups already started instead of
starting its own (`Opening.take_lookups`): at most 1 + N host -> dispatcher round trips for N
tool calls, whatever the Opening needed.
"""
from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from actors.protocol.turn import ToolRunner, TurnDeps
from actors.turn.opening import Opening
from spine.envelope import MessageEnvelope
from spine.toolspec import ToolInvocation
from tools.authority import Authority
from tools.caller import Caller
from tools.prefetch import wanted_lookups


class LookupsWithAuthority:
    """An AuthoritySource for one turn: the derivation it is asked for brings the turn's lookups."""

    def __init__(self, tools: ToolRunner, caller: Caller, wanted: list[ToolInvocation]) -> None:
        self.tools, self.caller, self.wanted = tools, caller, wanted
        self.asked = False  # whether the Opening asked for authority (else the turn starts its lookups)
        self.lookups: Awaitable[list[dict[str, Any]]] | None = None

    async def authority(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        who = self.caller.model_copy(update={"person_id": person_id, "property_id": property_id})
        start = await self.tools.begin_turn(who, self.wanted, fresh=fresh)
        self.asked, self.lookups = True, start.lookups
        return start.authority


def lookups_with_authority(deps: TurnDeps, envelope: MessageEnvelope, person_id: str,
                           opening: Opening | None, now: float) -> LookupsWithAuthority | None:
    """What the turn will want looked up, to send with the Opening's authority re-check if it is
    due one; None when no re-check is due (the turn starts its own lookups), prefetch is off or
    nothing is wanted (a re-check goes alone)."""
    same_place = opening is not None and opening.property_id == envelope.property_id
    if opening is not None and same_place and not opening.due(now):
        return None
    context = opening.context if opening is not None and same_place and opening.facts.records_visible else None
    wanted = wanted_lookups(envelope.body, context) if deps.prefetch else []
    if not wanted:
        return None
    who = Caller(person_id=person_id, property_id=envelope.property_id, org_id=None,
                 interaction_id=envelope.interaction_id, channel=envelope.channel,
                 impersonated_by=envelope.impersonated_by)
    return LookupsWithAuthority(deps.tools, who, wanted)
