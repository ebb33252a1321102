"""The Opening: everything a turn needs to know about who is talking, read once per interaction.

Built once from the store when a PersonActor activates (or a call opens), held warm by the actor
between turns and handed to every turn of every channel: the Person, the roles in force at the
inbound property and what they reach (the gate's own CallerFacts: one derivation serves the
prompt and the gate), personContext with ghost pointers filtered, and the stable prompt prefix of
that role set (shared by every Opening with the same role set at the same property).

How it goes stale, and how far (`refreshed`):
  * Person and roles come from the DispatcherActor's own derivation (tools.authority) and are
    re-checked once they are STALE_AFTER_S old: a role added or removed in the store reaches the
    next turn's prompt and tool list within that bound, as it reaches the dispatcher's gate.
  * A turn whose tools wrote (a work order filed, a prospect saved) invalidates the authority and
    the active pointers; the next turn re-derives both, so it sees what the last one did.
  * The summary is the persisted snapshot: the end of the interaction rewrites it.
  * Reference data (property, units, vendors) keeps its per-process TTL (spine.repo.reference_cache).
"""
from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from pydantic import BaseModel, PrivateAttr

from prompts.assemble import AssembledPrompt, assemble_prompt, with_volatile
from prompts.context_check import filter_ghost_pointers
from spine.context import Channel, PersonContext
from spine.context_build import build_active_pointers
from spine.events import ContextBuildReason
from spine.identity import Person, PersonRole
from spine.intent.language import Language
from spine.repo import Spine
from spine.routing_types import L1Result
from spine.toolspec import ToolSpec
from tools.authority import STALE_AFTER_S, Authority, AuthoritySource, CallerFacts
from tools.caller import Caller
from tools.catalog import facility_tools, role_tools_for


class Opening(BaseModel):
    person_id: str
    property_id: str
    authority: Authority  # the Person, their roles and what those reach (authority.facts)
    context: PersonContext
    context_gap: ContextBuildReason | None = None  # why the context was built, not read (first turn's event)
    prefix: AssembledPrompt | None = None  # shared; the volatile block is rendered per turn
    prefix_key: tuple[str, ...] | None = None  # the role set and origin it was assembled for
    checked_at: float = 0.0  # when the authority was last derived (wall clock)
    authority_stale: bool = False  # a tool wrote: re-derive before the next turn
    context_stale: bool = False  # a tool wrote: rebuild the active pointers before the next turn
    contact_noted: tuple[str, str, Language | None] | None = None  # (channel, address, language) last written
    # Clara has said she is an AI assistant to this person (actors.turn.introduce): known once, it
    # never goes back, so the warm turns after it read nothing for it.
    introduced: bool = False
    # The lookups started with this turn's authority re-check (actors.turn.turn_start), for the
    # turn of that interaction only.
    _lookups: tuple[str, Awaitable[list[dict[str, Any]]] | None] | None = PrivateAttr(default=None)

    @property
    def person(self) -> Person | None:
        return self.authority.person

    @property
    def roles(self) -> list[PersonRole]:
        return self.authority.authoritative_roles

    @property
    def facts(self) -> CallerFacts:
        return self.authority.facts

    def caller(self, interaction_id: str, channel: Channel, impersonated_by: str | None = None) -> Caller:
        return Caller.of(self.authority, interaction_id, channel, impersonated_by)

    def due(self, now: float) -> bool:
        return self.authority_stale or self.context_stale or now - self.checked_at >= STALE_AFTER_S

    def hand_lookups(self, interaction_id: str, lookups: Awaitable[list[dict[str, Any]]] | None) -> None:
        """The lookups already started for this interaction's turn (None: none were offered)."""
        self._lookups = (interaction_id, lookups)

    def take_lookups(self, interaction_id: str) -> tuple[bool, Awaitable[list[dict[str, Any]]] | None]:
        """(handed, lookups): whether the turn's lookups were started for it, and how they end."""
        handed, self._lookups = self._lookups, None
        if handed is None or handed[0] != interaction_id:
            return False, None
        return True, handed[1]

    def wrote(self) -> None:
        """A turn's tool changed the store: what it may have changed is read again next turn."""
        self.authority_stale = self.context_stale = True


async def open_for(spine: Spine, authorities: AuthoritySource, person_id: str, property_id: str, *,
                   channel: Channel, address: str | None, interaction_id: str, now: float) -> Opening:
    """Build an Opening from the store (one derivation of authority, one context read)."""
    authority = await authorities.authority(person_id, property_id, fresh=True)
    return await _build(spine, authority, channel=channel, address=address, interaction_id=interaction_id)


async def refreshed(spine: Spine, authorities: AuthoritySource, opening: Opening, *, channel: Channel,
                    address: str | None, interaction_id: str, now: float) -> Opening:
    """The Opening for the next turn, by the staleness rules above (itself if nothing is due)."""
    if not opening.due(now):
        return opening
    authority = opening.authority
    if opening.authority_stale or now - opening.checked_at >= STALE_AFTER_S:
        authority = await authorities.authority(opening.person_id, opening.property_id, fresh=opening.authority_stale)
    if not authority.same_as(opening.authority):
        rebuilt = await _build(spine, authority, channel=channel, address=address, interaction_id=interaction_id,
                               summary_of=opening.context)
        rebuilt.introduced = opening.introduced
        return rebuilt
    context = opening.context
    if opening.context_stale:
        context = await _repointed(spine, opening.context, authority)
    # The prefix is looked up again, so a property edit (reference TTL) reaches it within the bound.
    return opening.model_copy(update={"context": context, "checked_at": authority.derived_at, "prefix": None,
                                      "authority_stale": False, "context_stale": False, "context_gap": None})


async def _build(spine: Spine, authority: Authority, *, channel: Channel, address: str | None, interaction_id: str,
                 summary_of: PersonContext | None = None) -> Opening:
    person_id = authority.person_id or ""
    gap = None
    if summary_of is not None:  # a re-check that found other roles: same snapshot, new pointers
        context = await _repointed(spine, summary_of, authority)
    else:
        context, gap = await load_context(spine, person_id, channel=channel, address=address,
                                          property_id=authority.property_id, interaction_id=interaction_id,
                                          roles=authority.all_roles)
    return Opening(person_id=person_id, property_id=authority.property_id, authority=authority, context=context,
                   context_gap=gap, checked_at=authority.derived_at)


async def load_context(spine: Spine, person_id: str, *, channel: Channel, address: str | None, property_id: str,
                       interaction_id: str, roles: list[PersonRole] | None = None,
                       ) -> tuple[PersonContext, ContextBuildReason | None]:
    """The eager tier of personContext, loaded one way on every channel: the persisted snapshot
    (ghost pointers filtered), else pointers from the store with the fresh-contact summary and
    the reason it was built (`roles`: the person's role rows, if already read)."""
    stored = await spine.get_context(person_id)
    if stored is not None:
        return await filter_ghost_pointers(spine, stored, channel=channel, address=address, property_id=property_id,
                                           interaction_id=interaction_id), None
    active = await build_active_pointers(spine, person_id, roles=roles)
    return PersonContext(person_id=person_id, active=active), ContextBuildReason.PERSISTED_CONTEXT_MISSING


async def _repointed(spine: Spine, context: PersonContext, authority: Authority) -> PersonContext:
    active = await build_active_pointers(spine, context.person_id, roles=authority.all_roles)
    kept = context.active.model_copy(update={"active_work_orders": active.active_work_orders,
                                             "active_tours": active.active_tours,
                                             "active_renewal_workflow_id": active.active_renewal_workflow_id})
    return context.model_copy(update={"active": kept})


# -- the prompt --------------------------------------------------------------------------------
# (role values and origin, the property as JSON, the role tools' names)
_PREFIXES: dict[tuple[tuple[str, ...], str | None, tuple[str, ...]], AssembledPrompt] = {}


async def prompt_for(spine: Spine, opening: Opening, caller: Caller, l1: L1Result, origin: str,
                     context: PersonContext, caller_name: str | None,
                     role_tools: list[ToolSpec] | None = None) -> AssembledPrompt:
    """The turn's prompt: the Opening's prefix (one per role set, property, origin and, when given
    (an impersonated turn's capped list), role tools, in this process, looked up again whenever
    the Opening is re-checked) with this turn's volatile block."""
    capped = tuple(t.name for t in role_tools) if role_tools is not None else None
    wanted = (*[r.value for r in l1.roles], origin, *(("capped", *capped) if capped is not None else ()))
    if opening.prefix is None or opening.prefix_key != wanted:
        prop = await spine.get_property(opening.property_id)  # reference data: cached
        role_tools = role_tools if role_tools is not None else role_tools_for(caller)
        key = (wanted, prop.model_dump_json() if prop else None, tuple(t.name for t in role_tools))
        prefix = _PREFIXES.get(key)
        if prefix is None:
            if len(_PREFIXES) > 1_000:
                _PREFIXES.clear()
            prefix = _PREFIXES[key] = assemble_prompt(l1=l1, property=prop, facility_tools=facility_tools(),
                                                      role_tools=role_tools, context=PersonContext(person_id=""),
                                                      origin=origin)
        opening.prefix, opening.prefix_key = prefix, wanted
    return with_volatile(opening.prefix, l1=l1, context=context, caller_name=caller_name)
