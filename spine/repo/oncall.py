"""Spine methods of on-call paging: plans per property and the pages (ladders) they start.

A mixin of `Spine` (spine/repo/__init__.py). A page is changed only by compare-and-set on its version
(`replace_page`), so the scheduler, an `ACK` and a keypress racing on one ladder leave one outcome;
it is indexed by status and next step due, so the scheduler reads only the ladders still running.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import datetime

import spine.keys as keys
from spine.oncall import TAKEN_PAGE_KEPT_S, OnCallPlan, Page, PageStatus
from spine.repo.base import Changed
from spine.repo.rollups import RollupRecords
from spine.store.base import ABSENT, Item, StoreError


def _page_item(page: Page) -> Item:
    return Item(pk=keys.page(page.id), data=page.model_dump(mode="json"), gsi1pk=keys.pages_with_status(page.status),
                gsi1sk=keys.page_due(page.next_due.isoformat(), page.id))


class OnCallRecords(RollupRecords):
    # -- plans --------------------------------------------------------------------------
    async def put_oncall_plan(self, plan: OnCallPlan) -> None:
        await self._put(plan, keys.oncall_plan(plan.property_id))

    async def get_oncall_plan(self, property_id: str) -> OnCallPlan | None:
        return await self._get(OnCallPlan, keys.oncall_plan(property_id))

    async def clear_oncall_plan(self, property_id: str) -> None:
        await self.store.delete(keys.oncall_plan(property_id))

    # -- pages --------------------------------------------------------------------------
    async def create_page(self, page: Page) -> bool:
        """Write a new page; False when a page with its id exists (a replayed start)."""
        if not await self._replace(_page_item(page), ABSENT):
            return False
        await self.bump(page.property_id, "emergencies.count")
        return True

    async def get_page(self, page_id: str) -> Page | None:
        found = await self.read_page(page_id)
        return found[0] if found else None

    async def read_page(self, page_id: str) -> tuple[Page, int] | None:
        """The page and its version, for `replace_page`."""
        item = await self.store.get(keys.page(page_id))
        return (Page.model_validate(item.data), item.version) if item else None

    async def replace_page(self, page: Page, version: int, *, before: Page) -> bool:
        """Write `page` only if it is still at `version` (`before`: the page as read at that version,
        for the reports' counters); False when someone else changed it first."""
        if not await self._replace(_page_item(page), version):
            return False
        await self._count_page(before, page)  # the write held, so `before` was the stored page
        return True

    async def change_page(self, page_id: str, change: Callable[[Page | None], Page | None], *,
                          tries: int) -> Changed[Page]:
        """Apply `change` to the page by compare-and-set (an ACK, a keypress and the scheduler race)."""
        changed = await self._compare_and_set(Page, keys.page(page_id), change=change, tries=tries,
                                              item_of=lambda page, _read: _page_item(page))
        if changed.before is not None and changed.after is not None:
            await self._count_page(changed.before, changed.after)
        return changed

    async def _count_page(self, before: Page, after: Page) -> None:
        """The reports' `emergencies` counters, on the change that is the fact."""
        if after.status == before.status:
            return
        if after.status == PageStatus.ACKNOWLEDGED:
            await self.bump(after.property_id, "emergencies.acknowledged")
            taken = (after.acknowledged_at or self.clock()) - after.created_at
            await self.observe(after.property_id, "emergencies.time_to_ack_s", max(taken.total_seconds(), 0.0))
        elif after.status == PageStatus.EXHAUSTED:
            await self.bump(after.property_id, "emergencies.exhausted")

    async def pages_due(self, now: datetime, *, limit: int = 100) -> list[tuple[Page, int]]:
        """Running ladders whose next step is due by `now`, the most overdue first, with versions."""
        items = await self.store.query_index(keys.pages_with_status(PageStatus.PAGING), limit=limit)
        due = [(Page.model_validate(i.data), i.version) for i in items]
        return [(page, version) for page, version in due if page.next_due <= now]

    async def claim_interaction_page(self, interaction_id: str, page_id: str) -> bool:
        """The turn's one page: True for the first page an interaction starts, False after."""
        return await self._replace(Item(pk=keys.interaction_page(interaction_id), data={"page_id": page_id}), ABSENT)

    async def link_escalation_page(self, escalation_id: str, page_id: str) -> None:
        await self.store.put(Item(pk=keys.escalation_page(escalation_id), data={"page_id": page_id}))

    async def page_for_escalation(self, escalation_id: str) -> Page | None:
        """The page an escalation started or joined; None when it paged nobody."""
        item = await self.store.get(keys.escalation_page(escalation_id))
        return await self.get_page(item.data["page_id"]) if item else None

    async def hold_page(self, person_id: str, page_id: str) -> None:
        """Remember that `person_id` was paged by `page_id` (what their `ACK` may acknowledge)."""
        await self.store.put(Item(pk=keys.pages_held(person_id), sk=page_id, data={"page_id": page_id}))

    async def pages_held_by(self, person_id: str) -> list[Page]:
        """The pages this Person was paged by, oldest first: those nobody took, and those taken
        within TAKEN_PAGE_KEPT_S. An older taken page leaves the list here (the page itself is kept)."""
        held: list[Page] = []
        for item in await self.store.query(keys.pages_held(person_id)):
            page = await self.get_page(item.sk)
            if page is None or _taken_long_ago(page, self.clock()):
                with suppress(StoreError):  # a store refusing writes: the next read trims it
                    await self.store.delete(item.pk, item.sk)
            else:
                held.append(page)
        return sorted(held, key=lambda p: p.created_at)

    async def open_pages_held_by(self, person_id: str) -> list[Page]:
        """The pages this Person was paged by that nobody has taken yet (running or exhausted), oldest first."""
        untaken = (PageStatus.PAGING, PageStatus.EXHAUSTED)
        return [p for p in await self.pages_held_by(person_id) if p.status in untaken]


def _taken_long_ago(page: Page, now: datetime) -> bool:
    return page.status == PageStatus.ACKNOWLEDGED and page.acknowledged_at is not None \
        and (now - page.acknowledged_at).total_seconds() >= TAKEN_PAGE_KEPT_S
