"""L1 vocabulary: MetaRole, L1Result and the routing decision handed to the layers above."""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from spine.records import InferredIntent, OtherClassification


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


class RoutingDecision(BaseModel):
    """Everything the layers above need about who is talking."""

    person_id: str | None
    property_id: str
    l1: L1Result
    minted: bool = False
    reply_suppressed: bool = False  # spam: record, do not answer
    graceful_degrade_reason: str | None = None
    events: list[str] = Field(default_factory=list)
    intent_evidence: str | None = None  # a minted prospect: the classifier's probability and top words
