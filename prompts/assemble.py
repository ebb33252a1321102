"""assemble_prompt: L0 | L2 union | facility tools | role tools || cache breakpoint || context | L1.

Ordered most-stable-first for Anthropic prompt caching. The cache prefix runs tools -> system ->
messages, so the tool definitions (facility tools, then role tools, in the catalog's fixed order) plus the
stable system blocks form one prefix that is byte-identical for every caller with the same role set
at the same property; `cache_control` marks its last system block. Nothing person-specific (name,
unit, phone, date) may appear above that breakpoint; it all goes in the volatile block below it.
"""
from __future__ import annotations

import json
from collections.abc import Set
from typing import Any

from pydantic import BaseModel

from prompts.directory import L2Feature, features_for
from prompts.l0 import l0_text
from spine.context import FRESH_CONTACT_SUMMARY, PersonContext, estimate_tokens
from spine.property import Property
from spine.records import PromptSection
from spine.routing_types import L1Result
from spine.toolspec import ToolSpec

CACHE_CONTROL: dict[str, str] = {"type": "ephemeral"}


class AssembledPrompt(BaseModel):
    system: list[dict[str, Any]]  # Anthropic text blocks; cache_control on the last stable one
    tools: list[dict[str, Any]]  # facility tools, then role tools, as API dicts
    sections: list[PromptSection]
    breakpoint_index: int  # index in `sections` of the last section above the cache breakpoint
    stable_prefix: str  # the exact cached bytes: tools + stable system blocks, canonical JSON
    volatile: str  # the text below the breakpoint

    @property
    def tool_names(self) -> list[str]:
        return [t["name"] for t in self.tools]


def _unique(tools: list[ToolSpec], exclude: Set[str] = frozenset()) -> list[ToolSpec]:
    """In the order given (the catalog's fixed order is part of the cache key), first of each name."""
    seen: dict[str, ToolSpec] = {}
    for tool in tools:
        if tool.name not in exclude:
            seen.setdefault(tool.name, tool)
    return list(seen.values())


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _json_list(encoded: list[str]) -> str:
    return f"[{','.join(encoded)}]"


def _count(tools: list[ToolSpec]) -> str:
    return f"{len(tools)} tool" + ("" if len(tools) == 1 else "s")


def _role_label(features: list[L2Feature]) -> str:
    return " + ".join(dict.fromkeys(f.meta_role.value for f in features)) or "none"


def _tool_listing(facility: list[ToolSpec], role: list[ToolSpec], label: str) -> tuple[str, str]:
    facility_text = ("FACILITY TOOL DESCRIPTIONS (any caller, facts of this property): "
                     + (", ".join(t.name for t in facility) or "none") + ".")
    role_text = (f"ROLE TOOL DESCRIPTIONS ({label}): " + (", ".join(t.name for t in role) or "none")
                 + ". The full definitions are in your tools list; use only those tools.")
    return facility_text, role_text


def render_volatile(l1: L1Result, context: PersonContext, caller_name: str | None = None) -> tuple[str, str, str]:
    """The three volatile parts: personContext.summary, personContext.active, the L1 breadcrumb.
    The caller's name leads the summary so Clara can greet them; it never goes above the breakpoint."""
    summary = FRESH_CONTACT_SUMMARY if context.refreshed_at is None else context.summary
    if caller_name:
        summary = f"Caller: {caller_name}\n{summary}"
    active = json.dumps(context.active.model_dump(mode="json"), ensure_ascii=False)
    return (f"PERSON CONTEXT (summary, advisory):\n{summary}",
            f"ACTIVE POINTERS (authoritative, from the records):\n{active}",
            f"L1 ROUTING BREADCRUMB:\n{json.dumps(l1.breadcrumb(), ensure_ascii=False)}")


def assemble_prompt(*, l1: L1Result, property: Property | None, facility_tools: list[ToolSpec],
                    role_tools: list[ToolSpec], context: PersonContext,
                    caller_name: str | None = None, origin: str = "inbound") -> AssembledPrompt:
    features = features_for(l1.roles, origin)
    facility = _unique(facility_tools)
    role = _unique(role_tools, exclude={t.name for t in facility})
    l0 = l0_text(property)
    l2 = "\n\n".join(f.prompt for f in features)
    facility_text, role_text = _tool_listing(facility, role, _role_label(features))
    summary, active, breadcrumb = render_volatile(l1, context, caller_name)
    volatile = f"{summary}\n\n{active}\n\n{breadcrumb}"

    stable_blocks: list[dict[str, Any]] = [{"type": "text", "text": text} for text in (l0, l2, f"{facility_text}\n{role_text}") if text]
    stable_blocks[-1]["cache_control"] = dict(CACHE_CONTROL)
    tools = [t.to_api() for t in facility] + [t.to_api() for t in role]
    # Each tool is encoded once: its JSON is counted for its layer and is part of the cached bytes.
    tool_json = [_dumps(t) for t in tools]
    facility_json, role_json = tool_json[:len(facility)], tool_json[len(facility):]

    sections = [PromptSection(layer="L0", name="L0 identity + safety + facility hint", token_estimate=estimate_tokens(l0))]
    sections += [PromptSection(layer="L2", name=f.key, token_estimate=f.meta.token_estimate) for f in features]
    sections += [
        PromptSection(layer="L3", name=f"facility tool descriptions ({_count(facility)})",
                      token_estimate=estimate_tokens(facility_text) + estimate_tokens(_json_list(facility_json))),
        PromptSection(layer="L3", name=f"role tool descriptions: {_role_label(features)} ({_count(role)})",
                      token_estimate=estimate_tokens(role_text) + estimate_tokens(_json_list(role_json))),
    ]
    breakpoint_index = len(sections) - 1
    sections += [
        PromptSection(layer="context", name="personContext.summary", token_estimate=estimate_tokens(summary)),
        PromptSection(layer="context", name="personContext.active", token_estimate=estimate_tokens(active)),
        PromptSection(layer="L1", name="L1 breadcrumb", token_estimate=estimate_tokens(breadcrumb)),
    ]
    return AssembledPrompt(
        system=[*stable_blocks, {"type": "text", "text": volatile}],
        tools=tools,
        sections=sections,
        breakpoint_index=breakpoint_index,
        # == _dumps({"tools": tools, "system": stable_blocks}), from the parts already encoded
        stable_prefix=f'{{"system":{_dumps(stable_blocks)},"tools":{_json_list(tool_json)}}}',
        volatile=volatile,
    )


def with_volatile(stable: AssembledPrompt, *, l1: L1Result, context: PersonContext,
                  caller_name: str | None = None) -> AssembledPrompt:
    """`stable`'s cached prefix (shared, not copied) with a new volatile block: what
    assemble_prompt would build for the same role set and property with this context. A
    PersonActor assembles the prefix once per Opening and only this per turn."""
    summary, active, breadcrumb = render_volatile(l1, context, caller_name)
    volatile = f"{summary}\n\n{active}\n\n{breadcrumb}"
    sections = stable.sections[:stable.breakpoint_index + 1] + [
        PromptSection(layer="context", name="personContext.summary", token_estimate=estimate_tokens(summary)),
        PromptSection(layer="context", name="personContext.active", token_estimate=estimate_tokens(active)),
        PromptSection(layer="L1", name="L1 breadcrumb", token_estimate=estimate_tokens(breadcrumb)),
    ]
    return AssembledPrompt.model_construct(
        system=[*stable.system[:-1], {"type": "text", "text": volatile}], tools=stable.tools, sections=sections,
        breakpoint_index=stable.breakpoint_index, stable_prefix=stable.stable_prefix, volatile=volatile)
