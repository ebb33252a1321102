"""Spine methods of follow-ups (desk/followups): a follow-up is one item, written once and changed
only by compare-and-set on its version (a racing scheduler's claim wins once); its copy in the
index of its status (one of a few shards), sorted by due time, is how a tick finds due steps with
one Query per shard; a person's pointers find theirs (a reply's answer, a takeover's stop)."""
from __future__ import annotations

import asyncio
import heapq
from contextlib import suppress
from datetime import datetime

import spine.keys as keys
from spine.followup import FollowUp, FollowUpStatus
from spine.repo.base import RepoBase
from spine.store.base import ABSENT, Item, StoreError

DUE_READ = 200  # due follow-ups read per tick, the most overdue first


def _item(followup: FollowUp, version: int = 0) -> Item:
    return Item(pk=keys.followup(followup.id), data=followup.model_dump(mode="json"), version=version,
                gsi1pk=keys.followups_with_status(followup.status, keys.followup_shard(followup.id)),
                gsi1sk=keys.followup_position(followup.due_at, followup.id))


class FollowUpRecords(RepoBase):
    async def create_followup(self, followup: FollowUp) -> bool:
        """Write a new follow-up and its person's pointer; False when one with its id exists (planned before)."""
        if not await self._replace(_item(followup), ABSENT):
            return False
        await self.store.put(Item(pk=keys.followups_of(followup.person_id), sk=followup.id, data={"id": followup.id}))
        return True

    async def read_followup(self, followup_id: str) -> tuple[FollowUp, int] | None:
        item = await self.store.get(keys.followup(followup_id))
        return (FollowUp.model_validate(item.data), item.version) if item else None

    async def replace_followup(self, followup: FollowUp, version: int) -> bool:
        """Write `followup` only if it is still at `version`: the one claim a racing scheduler cannot win twice."""
        return await self._replace(_item(followup), version)

    async def due_followups(self, now: datetime, *, limit: int = DUE_READ,
                            status: FollowUpStatus = FollowUpStatus.PENDING) -> list[tuple[FollowUp, int]]:
        """Pending follow-ups due by `now`, the most overdue first, with versions: one Query per
        shard (keys.FOLLOWUP_SHARDS, all at once), merged by due time, never a Scan."""
        shards = await asyncio.gather(*(self.store.query_index(keys.followups_with_status(status, shard), limit=limit)
                                        for shard in range(keys.FOLLOWUP_SHARDS)))
        found: list[tuple[FollowUp, int]] = []
        for item in heapq.merge(*shards, key=lambda i: i.gsi1sk or ""):
            followup = FollowUp.model_validate(item.data)
            if followup.due_at > now or len(found) == limit:
                break
            found.append((followup, item.version))
        return found

    async def followups_of_person(self, person_id: str) -> list[tuple[FollowUp, int]]:
        """Every follow-up of the person, oldest due first."""
        found: list[tuple[FollowUp, int]] = []
        for pointer in await self.store.query(keys.followups_of(person_id)):
            read = await self.read_followup(pointer.sk)
            if read is None:
                with suppress(StoreError):  # a pointer whose follow-up is gone: trimmed on read
                    await self.store.delete(pointer.pk, pointer.sk)
            else:
                found.append(read)
        return sorted(found, key=lambda fv: fv[0].due_at)
