"""L1 vocabulary: MetaRole, L1Result and the routing decision handed to the layers above."""
from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field

from spine.records import EventKind, InferredIntent, OtherClassification


class MetaRole(StrEnum):
    TENANT = "tenant"
    VENDOR = "vendor"
    PROSPECT = "prospect"
    PM = "pm"
    OTHER = "other"


class L1Result(BaseModel):
    """The active role SET (1..N, union, never narrowed) and its provenance."""

    roles: list[MetaRole]
    confidence: Literal["fact", "inferred"] = "fact"
    other_classification: OtherClassification | None = None
    inferred_intent: InferredIntent | None = None

    def breadcrumb(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def routing_event(kind: EventKind, reason: str) -> str:
    """One routing event as `RoutingDecision.events` keeps it: `<kind>:<reason>`."""
    return f"{EventKind(kind)}:{reason}"


def _kind_of(event: str) -> EventKind | None:
    # the longest kind first: one kind's value may begin another's
    return next((k for k in sorted(EventKind, key=len, reverse=True) if event.startswith(f"{k}:")), None)


def _known_kinds(events: list[str]) -> list[str]:
    unknown = [e for e in events if _kind_of(e) is None]
    if unknown:
        raise ValueError(f"routing events must be of an EventKind: {unknown}")
    return events


class RoutingDecision(BaseModel):
    """Everything the layers above need about who is talking."""

    person_id: str | None
    property_id: str
    l1: L1Result
    minted: bool = False
    reply_suppressed: bool = False  # spam: record, do not answer
    graceful_degrade_reason: str | None = None
    events: Annotated[list[str], AfterValidator(_known_kinds)] = Field(default_factory=list)  # routing_event()
    intent_evidence: str | None = None  # a minted prospect: the classifier's probability and top words

    def note(self, kind: EventKind, reason: str) -> None:
        self.events.append(routing_event(kind, reason))

    def reasons(self, kind: EventKind) -> list[str]:
        """The reasons of this decision's events of `kind`, in order."""
        return [e[len(kind) + 1:] for e in self.events if _kind_of(e) == kind]
