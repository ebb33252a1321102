"""The L2 directory: prompts/roles/<meta_role>/<feature>.py, loaded as a union of role bundles."""
from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache

from pydantic import BaseModel

from prompts.meta import L2FeatureMeta
from spine.routing_types import MetaRole

# Every role's features, in the order they appear in a prompt. Roles load in this order too, so
# a role SET (whatever order it arrives in) always yields the same text and the same cache prefix.
LAYOUT: dict[MetaRole, tuple[str, ...]] = {
    MetaRole.TENANT: ("maintenance", "renewal", "general_inquiry", "rating"),
    MetaRole.VENDOR: ("respond_to_dispatch", "schedule_confirmation", "work_order_update", "handoff"),
    MetaRole.PROSPECT: ("discovery", "tour_schedule", "application", "disqualification"),
    MetaRole.PM: ("ask_clara", "escalation_response"),
    MetaRole.OTHER: ("light_triage",),
}


class L2Feature(BaseModel):
    meta_role: MetaRole
    name: str
    prompt: str
    meta: L2FeatureMeta

    @property
    def key(self) -> str:
        return f"{self.meta_role.value}/{self.name}"


def load_feature(meta_role: MetaRole, name: str) -> L2Feature:
    module = importlib.import_module(f"prompts.roles.{meta_role.value}.{name}")
    return L2Feature(meta_role=meta_role, name=name, prompt=module.PROMPT, meta=module.META)


@cache
def _all() -> tuple[L2Feature, ...]:
    return tuple(load_feature(role, name) for role, names in LAYOUT.items() for name in names)


def all_features() -> list[L2Feature]:
    return list(_all())


# Origin informs the L2 path (ADR-0022): staff asking in the dashboard's Ask Clara panel get
# pm/ask_clara alone; escalation replies reach Clara by text, on the escalation's own thread.
ADMIN_ORIGIN_FEATURES: dict[MetaRole, frozenset[str]] = {MetaRole.PM: frozenset({"pm/ask_clara"})}


def features_for(roles: Iterable[MetaRole], origin: str = "inbound") -> list[L2Feature]:
    """The union of every listed role's bundle, all features with equal weight, in LAYOUT order;
    for an admin-origin envelope, a role's bundle narrowed as ADMIN_ORIGIN_FEATURES says."""
    wanted = {MetaRole(r) for r in roles}
    narrowed = ADMIN_ORIGIN_FEATURES if origin == "admin" else {}
    return [f for f in _all()
            if f.meta_role in wanted and (f.meta_role not in narrowed or f.key in narrowed[f.meta_role])]
