"""What a rule of the offline policy decides: a Plan (an intent, the tool calls for it, the work
order meant), and the small readings several rules share."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actors.model.offline.entities import Entities, extract
from actors.model.offline.reading import Reading
from actors.model.offline.vocabulary import NOT_A_NAME

Call = tuple[str, dict[str, Any]]


@dataclass
class Plan:
    intent: str
    calls: list[Call] = field(default_factory=list)
    wo: str | None = None  # the work order the caller means, if any
    fair_housing: bool = False  # a prospect touched a protected class: answer alike, steer no one
    entities: Entities | None = None  # what the reply should read, when the rule merged earlier words in


def earlier_work_order(r: Reading) -> str | None:
    """The work order the conversation was last about (Clara's last reply, then the caller's asks)."""
    for text in [r.last_reply(), *reversed(r.earlier_asks())]:
        if found := extract(text, r.today).work_orders:
            return found[0]
    return None


def with_unit(args: dict[str, Any], e: Entities) -> dict[str, Any]:
    return {**args, "unit": e.units[0]} if e.units else args


def proper_name(text: str) -> str | None:
    words = [w.strip("?!.,") for w in text.split()[1:]]
    names = [w for w in words if w[:1].isupper() and w.isalpha() and w not in NOT_A_NAME]
    return " ".join(names[:2]) or None
