"""Trace lookups shared by the JSON API and the trace pages, bounded by the signed-in scope."""
from __future__ import annotations

from desk.console.admin_scope import AdminScope
from spine.context import Channel
from spine.records import AgentTrace
from spine.repo import Spine

# Traces are listed newest first from one index; filters (and a scope short of everything) apply
# to a window this much larger than `limit`, so a filtered list stays one bounded read.
FILTER_WINDOW = 10
MAX_WINDOW = 1000


def matches(trace: AgentTrace, participant_id: str | None, channel: Channel | None) -> bool:
    return ((participant_id is None or trace.participant_id == participant_id)
            and (channel is None or trace.channel == channel))


async def find_traces(spine: Spine, scope: AdminScope, *, participant_id: str | None, channel: Channel | None,
                      limit: int) -> list[AgentTrace]:
    """The newest `limit` traces in scope matching the filters, within one bounded read."""
    filtered = participant_id is not None or channel is not None or not scope.everything
    window = min(limit * FILTER_WINDOW, MAX_WINDOW) if filtered else limit
    return [t for t in await spine.recent_traces(limit=window)
            if scope.sees(t.property_id) and matches(t, participant_id, channel)][:limit]


async def find_trace(spine: Spine, scope: AdminScope, interaction_id: str) -> AgentTrace | None:
    """One trace, or None when there is none or it is outside the scope (the two look alike)."""
    trace = await spine.get_trace(interaction_id)
    return trace if trace is not None and scope.sees(trace.property_id) else None
