"""The exceptions the tool layer raises, under one base its callers catch: `ToolError`.

    ToolError
    ├── ToolFailure          a handler cannot do what was asked; its message goes back to the
    │                        model as an is_error tool_result (tools.handlers.base)
    └── InvalidWorkOrderId   a work-order id spelled no accepted way (also a ValueError; tools.ids)

The gate never raises for a refusal: a refused call is a ToolResult with decision "refused".
Store errors pass through as spine.errors.SpineError.
"""
from __future__ import annotations

__all__ = ["ToolError"]


class ToolError(Exception):
    """Base of every exception the tool layer raises."""
