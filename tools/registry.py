"""Every tool the gateway has: name -> Tool (spec + handler), collected from the catalog modules."""
from __future__ import annotations

from functools import cache
from typing import get_type_hints

from pydantic import BaseModel

from tools.handlers import facility, pm, prospect, step_up, tenant, tenant_lease, transfer, universal, vendor
from tools.handlers.base import Tool

HANDLER_MODULES = (tenant, tenant_lease, vendor, prospect, pm, facility, universal, step_up, transfer)


def _collect() -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    for module in HANDLER_MODULES:
        for tool in module.TOOLS:
            if tool.name in tools:
                raise RuntimeError(f"tool {tool.name} is defined twice (in {module.__name__})")
            tools[tool.name] = tool
    return tools


TOOLS: dict[str, Tool] = _collect()


@cache
def output_model(name: str) -> type[BaseModel] | None:
    """The pydantic model a tool's handler returns (its result JSON is a dump of it), read from the
    handler's return annotation so the two can never disagree."""
    tool = TOOLS.get(name)
    if tool is None:
        return None
    returned = get_type_hints(tool.handler).get("return")
    return returned if isinstance(returned, type) and issubclass(returned, BaseModel) else None
