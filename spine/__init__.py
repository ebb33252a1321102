"""The identity spine: who is talking, what roles they hold, and the store that remembers it.

Nothing in here imports from the layers above (tools, prompts, actors, gateway). The names
below are the spine's public API; everything else is reached through its module. Where each
idea lives: store key layouts in `spine.keys`, the msgpack codec in `spine.codec`, event kinds
in `spine.records.EventKind`, the exception hierarchy in `spine.errors`.
"""
from spine import keys
from spine.codec import WireModel, pack, unpack, unpack_models
from spine.context import Channel, PersonContext
from spine.envelope import MessageEnvelope
from spine.errors import SpineError
from spine.events import emit_event
from spine.identity import (
    Claim,
    ClaimKind,
    OccupancyKind,
    Person,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
from spine.masking import install_log_masking
from spine.participants import BrokenMergeChain, resolve_participant
from spine.phone import InvalidPhoneNumber, normalize_phone
from spine.property import Lease, Organization, Property, Unit, Vendor
from spine.records import AgentTrace, EventKind, TraceEvent, TraceToolCall
from spine.repo import Spine
from spine.router import route_inbound, route_person
from spine.routing_types import L1Result, MetaRole, RoutingDecision
from spine.store import ConditionFailed, Item, Store, StoreError, StoreUnavailable, open_store
from spine.toolspec import CallDecision, ToolInvocation, ToolResult, ToolSpec
from spine.work import Prospect, RenewalWorkflow, Tour, WorkOrder

install_log_masking()

__all__ = [
    "AgentTrace",
    "BrokenMergeChain",
    "CallDecision",
    "Channel",
    "Claim",
    "ClaimKind",
    "ConditionFailed",
    "EventKind",
    "InvalidPhoneNumber",
    "Item",
    "L1Result",
    "Lease",
    "MessageEnvelope",
    "MetaRole",
    "OccupancyKind",
    "Organization",
    "Person",
    "PersonContext",
    "PersonRole",
    "PersonRoleSource",
    "PersonRoleType",
    "Property",
    "Prospect",
    "RenewalWorkflow",
    "RoleScope",
    "RoutingDecision",
    "Spine",
    "SpineError",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "ToolInvocation",
    "ToolResult",
    "ToolSpec",
    "Tour",
    "TraceEvent",
    "TraceToolCall",
    "Unit",
    "Vendor",
    "WireModel",
    "WorkOrder",
    "emit_event",
    "install_log_masking",
    "keys",
    "normalize_phone",
    "open_store",
    "pack",
    "resolve_participant",
    "route_inbound",
    "route_person",
    "unpack",
    "unpack_models",
]
