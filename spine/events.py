"""Structured observability events (the ADR's "Status observability").

Every event is logged as one JSON object per line on the `clara.events` logger AND persisted with
`Spine.put_event`, so the admin status cards can count them. A phone number leaves here only as its
last four digits: the address is reduced by `last4`, and any phone-like digit run in the free-form
detail (a message snippet, an error text) is masked by `spine.masking`, the mask every log line gets.
"""
from __future__ import annotations

import hashlib
import json
import logging
import uuid
from enum import StrEnum
from typing import Any

from spine.context import Channel
from spine.masking import mask_phones
from spine.records import Event, EventKind, last4
from spine.repo import Spine
from spine.store.base import StoreError

log = logging.getLogger("clara.events")


class GracefulDegradeReason(StrEnum):
    """Card 2: every exit of the router into MetaRole 'other'."""

    NO_PERSON_RESOLVED_NO_INTENT_HINTS = "no_person_resolved_no_intent_hints"
    PERSON_RESOLVED_NO_ROLES = "person_resolved_no_roles"
    PERSON_CATEGORY_SPAM = "person_category_spam"
    PERSON_CATEGORY_WRONG_NUMBER = "person_category_wrong_number"
    DECEASED_PERSON = "deceased_person"


class ContextBuildReason(StrEnum):
    """Card 1: edge cases of the eager personContext build (spelled as the ADR spells them)."""

    PERSON_ID_MISSING = "personId_missing"
    PERSISTED_CONTEXT_MISSING = "persisted_context_missing"
    GHOST_POINTER_FILTERED = "ghost_pointer_filtered"
    TENANT_OR_PROSPECT_QUERY_FAILED = "tenant_or_prospect_query_failed"


# The two status cards count by reason, so their vocabularies are closed.
_CLOSED_REASONS: dict[str, frozenset[str]] = {
    EventKind.GRACEFUL_DEGRADE: frozenset(GracefulDegradeReason),
    EventKind.CONTEXT_BUILD: frozenset(ContextBuildReason),
}

SNIPPET_CHARS = 80


def snippet(message: str, limit: int = SNIPPET_CHARS) -> str:
    """A first-message snippet that is safe to log: phone numbers masked, one line, bounded."""
    text = " ".join(mask_phones(message or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return mask_phones(value)
    if isinstance(value, dict):
        return {str(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v) for v in value]
    return value


def _event_id(kind: str, reason: str, interaction_id: str | None, detail: dict[str, Any]) -> str:
    """Deterministic within one interaction, so a retried turn rewrites its event instead of
    counting it twice on the status cards."""
    if not interaction_id:
        return f"ev_{uuid.uuid4().hex}"
    key = json.dumps([kind, reason, interaction_id, detail], sort_keys=True, default=str)
    return "ev_" + hashlib.sha256(key.encode()).hexdigest()[:24]


async def emit_event(
    spine: Spine | None,
    kind: EventKind,
    reason: str,
    *,
    channel: Channel | str | None,
    address: str | None,
    property_id: str | None,
    interaction_id: str | None,
    detail: dict[str, Any] | None = None,
    persist: bool = True,
) -> Event:
    """Log one structured JSON line and persist the event. Never raises on a store failure:
    observability must not take the caller's reply down with it (the log line still lands)."""
    allowed = _CLOSED_REASONS.get(kind)
    if allowed is not None and reason not in allowed:
        raise ValueError(f"{kind} has no reason {reason!r}; known: {sorted(allowed)}")
    clean = _scrub(dict(detail or {}))
    event = Event(
        id=_event_id(kind, reason, interaction_id, clean),
        kind=kind,
        reason=reason,
        channel=Channel(channel) if channel else None,
        phone_last4=last4(address),
        property_id=property_id,
        interaction_id=interaction_id,
        detail=clean,
    )
    line = event.model_dump(mode="json")
    line["persisted"] = False
    if persist and spine is not None:
        try:
            await spine.put_event(event)
            line["persisted"] = True
        except StoreError as exc:
            line["persist_error"] = type(exc).__name__
    # kind/reason/channel ride along for handlers that count events (actors.metrics.EventMetrics)
    log.warning(json.dumps(line, sort_keys=True),
                extra={"event_kind": kind, "event_reason": reason, "event_channel": line["channel"] or ""})
    return event


async def graceful_degrade(
    spine: Spine | None, reason: GracefulDegradeReason | str, **kwargs: Any
) -> Event:
    """`agent/graceful-degrade` at an 'other' exit (keyword arguments as emit_event)."""
    return await emit_event(spine, EventKind.GRACEFUL_DEGRADE, GracefulDegradeReason(reason), **kwargs)


async def context_build(spine: Spine | None, reason: ContextBuildReason | str, **kwargs: Any) -> Event:
    """`agent/context-build` for an eager-context edge case (keyword arguments as emit_event)."""
    return await emit_event(spine, EventKind.CONTEXT_BUILD, ContextBuildReason(reason), **kwargs)
