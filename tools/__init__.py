"""TOOL_ROLE_MATRIX, scope checks, tool specs and handlers, and the dispatch gate.

The names below are the tool layer's public API; everything else is reached through its module.
Errors: `tools.errors.ToolError` and below.
"""
from tools.caller import Caller, CallerFacts, StoreRoles, authoritative_roles, load_caller, records_visible
from tools.catalog import catalog_for, catalog_names, facility_tools, role_tools_for, voice_catalog
from tools.dispatch import dispatch, serve_prefetched
from tools.errors import ToolError
from tools.gate import authorize
from tools.handlers.base import ToolFailure
from tools.ids import InvalidWorkOrderId
from tools.matrix import TOOL_ROLE_MATRIX, Scope, ToolPolicy
from tools.prefetch import prefetch_candidates
from tools.registry import TOOLS

__all__ = [
    "TOOLS",
    "TOOL_ROLE_MATRIX",
    "Caller",
    "CallerFacts",
    "InvalidWorkOrderId",
    "Scope",
    "StoreRoles",
    "ToolError",
    "ToolFailure",
    "ToolPolicy",
    "authoritative_roles",
    "authorize",
    "catalog_for",
    "catalog_names",
    "dispatch",
    "facility_tools",
    "load_caller",
    "prefetch_candidates",
    "records_visible",
    "role_tools_for",
    "serve_prefetched",
    "voice_catalog",
]
