"""TOOL_ROLE_MATRIX, scope checks, tool specs and handlers, and the dispatch gate.

The names below are the tool layer's public API; everything else is reached through its module.
Errors: `tools.errors.ToolError` and below.
"""
from tools.authority import STALE_AFTER_S, Authority, AuthoritySource, CallerFacts, derive_authority
from tools.caller import Caller, load_caller
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
    "STALE_AFTER_S",
    "TOOLS",
    "TOOL_ROLE_MATRIX",
    "Authority",
    "AuthoritySource",
    "Caller",
    "CallerFacts",
    "InvalidWorkOrderId",
    "Scope",
    "ToolError",
    "ToolFailure",
    "ToolPolicy",
    "authorize",
    "catalog_for",
    "catalog_names",
    "derive_authority",
    "dispatch",
    "facility_tools",
    "load_caller",
    "prefetch_candidates",
    "role_tools_for",
    "serve_prefetched",
    "voice_catalog",
]
