"""`gateway explain --from PHONE --to PHONE "message"`: the routing decision and the assembled
prompt's anatomy for any inbound, as the ADR's block diagrams in text.

A dry run: it mints no Person for an unknown number (it reports what would be minted) and
persists no events, so explaining traffic never changes the status cards.
"""
from __future__ import annotations

import sys
import uuid

from gateway.cli.common import open_spine
from prompts.assemble import AssembledPrompt, assemble_prompt
from spine.context import Channel, PersonContext
from spine.identity import PersonRoleType
from spine.phone import InvalidPhoneNumber, normalize_phone
from spine.property import Property
from spine.records import EventKind, last4
from spine.repo import Spine
from spine.router import route_inbound
from spine.routing_types import MetaRole, RoutingDecision
from tools.authority import Authority, CallerFacts
from tools.caller import Caller, load_caller
from tools.catalog import facility_tools, role_tools_for

RULE = "─" * 64


def register(sub) -> None:
    p = sub.add_parser("explain", help="show the routing decision and prompt anatomy for an inbound (dry run)")
    p.add_argument("--from", dest="from_number", required=True, help="caller's phone number")
    p.add_argument("--to", dest="to_number", required=True, help="the property's number, e.g. +12065550100")
    p.add_argument("--channel", choices=["sms", "voice"], default="sms")
    p.add_argument("message")
    p.set_defaults(func=run)


async def run(args) -> int:
    try:
        to_number = normalize_phone(args.to_number)
    except InvalidPhoneNumber as exc:
        print(f"error: --to: {exc}", file=sys.stderr)
        return 2
    spine = open_spine(read_only=True)
    try:
        prop = await spine.property_for_number(to_number)
        if prop is None:
            print(f"error: no property answers {to_number} (try `gateway seed`)", file=sys.stderr)
            return 2
        channel = Channel(args.channel)
        interaction_id = f"explain-{uuid.uuid4().hex[:12]}"
        decision = await route_inbound(spine, channel=channel, wire_address=args.from_number, property_id=prop.id,
                                       message=args.message, interaction_id=interaction_id, mint=False,
                                       record_events=False)
        caller = await _caller(spine, decision, prop, interaction_id, channel)
        context = (await spine.get_context(decision.person_id) if decision.person_id else None) \
            or PersonContext(person_id=decision.person_id or "")
        prompt = assemble_prompt(l1=decision.l1, property=prop, facility_tools=facility_tools(),
                                 role_tools=role_tools_for(caller), context=context)
        print(render(args.from_number, prop, channel, args.message, decision, prompt, await _name(spine, decision)))
        return 0
    finally:
        await spine.store.close()


async def _caller(spine: Spine, decision: RoutingDecision, prop: Property, interaction_id: str,
                  channel: Channel) -> Caller:
    """The caller the tool gate would see; for a would-be mint, the prospect it would become."""
    if decision.person_id is None and MetaRole.PROSPECT in decision.l1.roles:
        facts = CallerFacts(person_id=None, property_id=prop.id, org_id=prop.org_id,
                            role_types=frozenset({PersonRoleType.PROSPECT}))
        authority = Authority(person_id=None, property_id=prop.id, org_id=prop.org_id, facts=facts)
        return Caller.of(authority, interaction_id, channel)
    return await load_caller(spine, decision.person_id, prop.id, interaction_id, channel)


async def _name(spine: Spine, decision: RoutingDecision) -> str:
    person = await spine.get_person(decision.person_id) if decision.person_id else None
    return f"{person.id} ({person.display_name})" if person else "none"


def render(from_number: str, prop: Property, channel: Channel, message: str, decision: RoutingDecision,
           prompt: AssembledPrompt, person: str) -> str:
    l1 = decision.l1
    lines = [
        f"inbound   {channel.value} from …{last4(from_number) or '????'} to {prop.name} ({prop.id})",
        f"message   {message!r}",
        f"person    {person}",
        f"roles     {', '.join(r.value for r in l1.roles)}   confidence: {l1.confidence}",
    ]
    if l1.other_classification:
        oc = l1.other_classification
        lines.append(f"other     {oc.description!r}   spine_category: {oc.spine_category}")
    if l1.inferred_intent:
        lines.append(f"intent    {l1.inferred_intent.kind}")
    if decision.graceful_degrade_reason:
        lines.append(f"degrade   agent/graceful-degrade: {decision.graceful_degrade_reason}")
    if decision.reply_suppressed:
        lines.append("reply     SUPPRESSED (spam: recorded, not answered)")
    would_mint = EventKind.WOULD_MINT_PROSPECT
    lines += [f"note      {would_mint}:{who}" for who in decision.reasons(would_mint)]
    lines += ["", "assembled prompt (cache layout, most stable first)", RULE]
    lines += _anatomy(prompt)
    lines += [RULE, f"tools offered ({len(prompt.tools)}): {', '.join(prompt.tool_names)}"]
    return "\n".join(lines)


def _anatomy(prompt: AssembledPrompt) -> list[str]:
    out, cached = [], 0
    for i, section in enumerate(prompt.sections):
        out.append(f"{i:>3}  {section.layer:<8} ~{section.token_estimate:>5} tok  {section.name}")
        if i <= prompt.breakpoint_index:
            cached += section.token_estimate
        if i == prompt.breakpoint_index:
            out.append(f"     ── CACHE BREAKPOINT ── above: ~{cached} tokens, long-cached prefix; below: volatile")
    volatile = sum(s.token_estimate for s in prompt.sections[prompt.breakpoint_index + 1:])
    out.append(f"     total ~{cached + volatile} tokens ({cached} cached prefix + {volatile} volatile)")
    return out
