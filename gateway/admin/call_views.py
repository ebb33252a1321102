"""A person's phone calls on the console's conversation page: each call's summary (the post-call
analysis), its transfers to a person and how they ended (who was rung, when, what happened), and
the escalation a failed one filed. The call's turns are the conversation's own voice messages."""
from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

import gateway.admin.html as html
from gateway.admin.trace_pages import trace_href
from spine.repo import Spine
from spine.transfer import Transfer

CALL_PREFIX = "voice-"


class RingView(BaseModel):
    target: str
    at: datetime
    status: str


class TransferView(BaseModel):
    id: str
    reason: str
    urgency: str
    outcome: str
    rings: list[RingView]
    escalation_id: str | None
    message: str


class CallView(BaseModel):
    interaction_id: str
    trace_url: str
    summary: str | None
    transfers: list[TransferView]


def _transfer(t: Transfer) -> TransferView:
    rings = [RingView(target=t.targets[a.index].label, at=a.at, status=a.status) for a in t.attempts
             if 0 <= a.index < len(t.targets)]
    return TransferView(id=t.id, reason=t.reason, urgency=t.urgency, outcome=t.outcome, rings=rings,
                        escalation_id=t.escalation_id, message=t.message)


async def calls_of(spine: Spine, interaction_ids: list[str | None]) -> list[CallView]:
    """The calls among these interactions, in order (each once)."""
    seen = list(dict.fromkeys(i for i in interaction_ids if i and i.startswith(CALL_PREFIX)))
    views = []
    for iid in seen:
        summary = await spine.get_call_summary(iid)
        transfers = [_transfer(t) for t in await spine.transfers_of_call(iid)]
        views.append(CallView(interaction_id=iid, trace_url=f"/admin/traces/{iid}",
                              summary=summary.summary if summary else None, transfers=transfers))
    return views


def calls_table(calls: list[CallView]) -> html.Safe:
    rows = [(html.link(trace_href(c.interaction_id), "call"), c.summary or "—",
             html.join(html.tag("div", _said(t)) for t in c.transfers) if c.transfers else "—") for c in calls]
    return html.table(["call", "summary", "transfers"], rows, empty="no calls")


def _said(t: TransferView) -> str:
    rings = "; ".join(f"{r.target} {r.at:%H:%M:%S} {r.status}" for r in t.rings) or "nobody rung"
    filed = f", escalation {t.escalation_id}" if t.escalation_id else ""
    message = f", message: {t.message}" if t.message else ""
    return f"{t.urgency} transfer ({t.reason}): {t.outcome}; {rings}{filed}{message}"
