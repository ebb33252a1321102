"""Follow-ups in the store: written once, changed only by compare-and-set on their version, found
due by one index Query (spine.followup has the layout and why).

Kept here rather than as a Spine mixin so the follow-ups stay one desk workflow over the store's
own protocol (get, put with a version, query_index): nothing else reads these items.
"""
from __future__ import annotations

from contextlib import suppress
from datetime import datetime

from spine.followup import FollowUp, FollowUpStatus, followup_due, followup_key, followups_of, followups_with_status
from spine.repo import Spine
from spine.store.base import ABSENT, ConditionFailed, Item, StoreError

DUE_READ = 200  # due follow-ups read per tick, the most overdue first


def _item(followup: FollowUp, version: int = 0) -> Item:
    return Item(pk=followup_key(followup.id), data=followup.model_dump(mode="json"), version=version,
                gsi1pk=followups_with_status(followup.status), gsi1sk=followup_due(followup.due_at, followup.id))


async def create_followup(spine: Spine, followup: FollowUp) -> bool:
    """Write a new follow-up and its person's pointer; False when one with its id exists (planned before)."""
    try:
        await spine.store.put(_item(followup), expect_version=ABSENT)
    except ConditionFailed:
        return False
    await spine.store.put(Item(pk=followups_of(followup.person_id), sk=followup.id, data={"id": followup.id}))
    return True


async def read_followup(spine: Spine, followup_id: str) -> tuple[FollowUp, int] | None:
    item = await spine.store.get(followup_key(followup_id))
    return (FollowUp.model_validate(item.data), item.version) if item else None


async def replace_followup(spine: Spine, followup: FollowUp, version: int) -> bool:
    """Write `followup` only if it is still at `version`: the one claim a racing scheduler cannot win twice."""
    try:
        await spine.store.put(_item(followup), expect_version=version)
        return True
    except ConditionFailed:
        return False


async def due_followups(spine: Spine, now: datetime, *, limit: int = DUE_READ,
                        status: FollowUpStatus = FollowUpStatus.PENDING) -> list[tuple[FollowUp, int]]:
    """Pending follow-ups due by `now`, the most overdue first, with versions: one Query."""
    items = await spine.store.query_index(followups_with_status(status), limit=limit)
    found = [(FollowUp.model_validate(i.data), i.version) for i in items]
    return [(f, v) for f, v in found if f.due_at <= now]


async def followups_of_person(spine: Spine, person_id: str) -> list[tuple[FollowUp, int]]:
    """Every follow-up of the person (a reply's answers, a takeover's stops), oldest due first."""
    found: list[tuple[FollowUp, int]] = []
    for pointer in await spine.store.query(followups_of(person_id)):
        read = await read_followup(spine, pointer.sk)
        if read is None:
            with suppress(StoreError):  # a pointer whose follow-up is gone: trimmed on read
                await spine.store.delete(pointer.pk, pointer.sk)
        else:
            found.append(read)
    return sorted(found, key=lambda fv: fv[0].due_at)
