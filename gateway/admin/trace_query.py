"""Trace lookups shared by the JSON API and the trace pages."""
from __future__ import annotations

from spine.context import Channel
from spine.records import AgentTrace
from spine.repo import Spine

# Traces are listed newest first from one index; filters apply to a window this much larger
# than `limit`, so a filtered list stays one bounded read.
FILTER_WINDOW = 10
MAX_WINDOW = 1000


def matches(trace: AgentTrace, participant_id: str | None, channel: Channel | None) -> bool:
    return ((participant_id is None or trace.participant_id == participant_id)
            and (channel is None or trace.channel == channel))


async def find_traces(spine: Spine, *, participant_id: str | None, channel: Channel | None,
                      limit: int) -> list[AgentTrace]:
    """The newest `limit` traces matching the filters, within one bounded read."""
    filtered = participant_id is not None or channel is not None
    window = min(limit * FILTER_WINDOW, MAX_WINDOW) if filtered else limit
    return [t for t in await spine.recent_traces(limit=window) if matches(t, participant_id, channel)][:limit]
