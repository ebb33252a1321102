"""Every tool the gateway has: name -> Tool (spec + handler), collected from the catalog modules."""
from __future__ import annotations

from tools.handlers import facility, pm, prospect, step_up, tenant, tenant_lease, universal, vendor
from tools.handlers.base import Tool

HANDLER_MODULES = (tenant, tenant_lease, vendor, prospect, pm, facility, universal, step_up)


def _collect() -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    for module in HANDLER_MODULES:
        for tool in module.TOOLS:
            if tool.name in tools:
                raise RuntimeError(f"tool {tool.name} is defined twice (in {module.__name__})")
            tools[tool.name] = tool
    return tools


TOOLS: dict[str, Tool] = _collect()
