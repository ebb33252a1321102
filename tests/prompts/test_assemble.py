"""assemble_prompt: the ADR's order, Anthropic-ready blocks, the breakpoint and the volatile context."""
from __future__ import annotations

import json

from prompts.assemble import assemble_prompt
from spine.context import FRESH_CONTACT_SUMMARY, PersonContext, estimate_tokens
from spine.routing_types import L1Result, MetaRole
from tests.support.prompt_helpers import assembled, marcus_context
from tools.caller import load_caller
from tools.catalog import facility_tools, role_tools_for


async def test_sections_follow_the_adr_order_with_the_breakpoint_after_the_role_tools(spine):
    p = await assembled(spine, "+13035552020", message="check on WO-42")
    layers = [s.layer for s in p.sections]
    assert layers == ["L0"] + ["L2"] * 8 + ["L3", "L3", "context", "context", "L1"]
    assert p.breakpoint_index == layers.index("context") - 1
    names = [s.name for s in p.sections]
    assert names[9].startswith("facility tool descriptions") and names[10].startswith("role tool descriptions")
    assert names[-3:] == ["personContext.summary", "personContext.active", "L1 breadcrumb"]


async def test_system_blocks_carry_one_cache_control_on_the_last_stable_block(spine):
    p = await assembled(spine, "+12065551001", context=marcus_context())
    assert all(b["type"] == "text" and b["text"] for b in p.system)
    marked = [i for i, b in enumerate(p.system) if "cache_control" in b]
    assert marked == [len(p.system) - 2] and p.system[-2]["cache_control"] == {"type": "ephemeral"}
    assert p.system[-1]["text"] == p.volatile
    assert "FACILITY TOOL DESCRIPTIONS" in p.system[-2]["text"] and "ROLE TOOL DESCRIPTIONS" in p.system[-2]["text"]
    cached = json.loads(p.stable_prefix)
    assert cached == {"tools": p.tools, "system": p.system[:-1]}
    canonical = json.dumps(cached, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert p.stable_prefix == canonical  # byte for byte: the bytes the cache keys on


async def test_tools_are_facility_then_role_tools_in_catalog_order(spine):
    caller = await load_caller(spine, "p_carlos", "pf_yale", "t")
    facility, role = facility_tools(), role_tools_for(caller)
    p = assemble_prompt(l1=L1Result(roles=[MetaRole.TENANT, MetaRole.VENDOR]), property=None,
                        facility_tools=facility, role_tools=facility[:1] + role,  # a duplicate is dropped
                        context=PersonContext(person_id="p_carlos"))
    assert p.tool_names == [t.name for t in facility] + [t.name for t in role]
    assert p.tools[0] == facility[0].to_api()
    assert "could not identify" in p.system[0]["text"]


async def test_first_interaction_context_says_fresh_contact(spine):
    stale = PersonContext(person_id="p_marcus", summary="left over from a reset")
    p = await assembled(spine, "+12065551001", context=stale)
    assert FRESH_CONTACT_SUMMARY == "This is a fresh contact. No prior context available."
    assert p.volatile.splitlines()[1] == FRESH_CONTACT_SUMMARY and "left over" not in p.volatile


async def test_volatile_block_renders_summary_then_active_then_breadcrumb(spine):
    ctx = marcus_context()
    p = await assembled(spine, "+12065551001", context=ctx)
    summary, active, crumb = p.volatile.split("\n\n")
    assert summary.endswith(ctx.summary)
    assert json.loads(active.split("\n", 1)[1]) == ctx.active.model_dump(mode="json")
    assert json.loads(crumb.split("\n", 1)[1]) == {"roles": ["tenant"], "confidence": "fact"}


async def test_k3_and_k5_breadcrumbs(spine):
    k3 = await assembled(spine, "+14155559876", message="do you have 2BR units next month?")
    assert json.loads(k3.volatile.rsplit("\n", 1)[1]) == {"roles": ["prospect"], "confidence": "inferred",
                                                           "inferred_intent": {"kind": "availability"}}
    k5 = await assembled(spine, "+13105557777", message="yo what's up Trevor")
    assert json.loads(k5.volatile.rsplit("\n", 1)[1])["other_classification"] == {
        "description": "random caller", "spine_category": "wrong_number"}
    assert [s.name for s in k5.sections if s.layer == "L2"] == ["other/light_triage"]
    assert k5.tool_names[-1] == "escalate_to_human" and len(k5.tool_names) == len(facility_tools()) + 1


async def test_token_estimates_add_up_to_the_payload(spine):
    p = await assembled(spine, "+13035552020", context=marcus_context())
    total = sum(s.token_estimate for s in p.sections)
    payload = estimate_tokens("".join(b["text"] for b in p.system)) + estimate_tokens(
        json.dumps(p.tools, sort_keys=True, separators=(",", ":")))
    assert abs(total - payload) / payload < 0.05, (total, payload)
