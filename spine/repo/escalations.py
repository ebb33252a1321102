"""Spine methods of escalations: the record, the org's list, and the staff console's queue.

Each escalation is copied into its property's queue and its org's queue (spine/keys/), so the
console's page is one descending query per queue: open first, then acknowledged, then resolved,
newest first within each, a status filter being a sort-key prefix. A status change is a
compare-and-set on the record, then the copies move.
"""
from __future__ import annotations

from collections.abc import Callable

import spine.keys as keys
from spine.escalation import Escalation, EscalationStatus
from spine.feed import ChangeKind
from spine.identity import Person
from spine.records import last4
from spine.repo.base import CAS_TRIES
from spine.repo.feed import ChangeFeedRecords
from spine.repo.rollups import RollupRecords
from spine.store.base import ConditionFailed, Item


def _queues(escalation: Escalation) -> list[str]:
    queues = [keys.property_escalation_queue(escalation.property_id)]
    if escalation.org_id:
        queues.append(keys.org_escalation_queue(escalation.org_id))
    return queues


def _position(escalation: Escalation) -> str:
    return keys.escalation_queue_position(escalation.status, escalation.created_at.isoformat(), escalation.id)


class EscalationRecords(ChangeFeedRecords, RollupRecords):
    async def put_escalation(self, escalation: Escalation) -> None:
        if escalation.person_id and escalation.name is None:
            person = await self._get(Person, keys.person(escalation.person_id))
            if person is not None:
                phones = person.phones()
                escalation = escalation.model_copy(update={
                    "name": person.display_name,
                    "wire_address_last4": escalation.wire_address_last4 or last4(phones[0] if phones else None)})
        before = await self.get_escalation(escalation.id)  # a writer changing its status moves its copies
        await self._put(escalation, keys.escalation(escalation.id), gsi1pk=keys.org_escalations(escalation.org_id),
                        gsi1sk=keys.escalation_position(escalation.created_at.isoformat(), escalation.id))
        if before is not None:
            await self._dequeue(before, escalation)
        else:
            await self.bump(escalation.property_id, "handoffs")  # a conversation went to a person
        await self._enqueue(escalation)
        await self._escalation_changed(escalation)

    async def _escalation_changed(self, escalation: Escalation) -> None:
        """Live console pages hear of it (spine.repo.feed)."""
        await self.note_change(ChangeKind.ESCALATION, escalation.id, escalation.property_id, org_id=escalation.org_id,
                               detail={"status": escalation.status})

    async def _dequeue(self, before: Escalation, after: Escalation) -> None:
        if _position(before) != _position(after) or _queues(before) != _queues(after):
            for queue in _queues(before):
                await self.store.delete(queue, _position(before))

    async def _enqueue(self, escalation: Escalation) -> None:
        for queue in _queues(escalation):
            await self._put(escalation, queue, _position(escalation))

    async def get_escalation(self, escalation_id: str) -> Escalation | None:
        return await self._get(Escalation, keys.escalation(escalation_id))

    async def escalations_for_org(self, org_id: str, *, limit: int = 100) -> list[Escalation]:
        """Newest first: what the org's PMs see."""
        return await self._index(Escalation, keys.org_escalations(org_id), limit=limit, descending=True)

    async def change_escalation(self, escalation_id: str,
                                change: Callable[[Escalation], Escalation | None]) -> Escalation | None:
        """Apply `change` by compare-and-set (None from it: nothing to change); the queue copies follow.
        None when there is no such escalation."""
        changed = await self._compare_and_set(Escalation, keys.escalation(escalation_id),
                                              change=lambda found: change(found) if found else None)
        if changed.lost:
            raise ConditionFailed(f"escalation {escalation_id} kept changing under {CAS_TRIES} tries")
        if changed.before is None or changed.after is None:
            return changed.before
        await self._dequeue(changed.before, changed.after)
        await self._enqueue(changed.after)
        await self._escalation_changed(changed.after)
        return changed.after

    async def escalation_queue(self, *, property_ids: list[str] | None = None, org_ids: list[str] | None = None,
                               status: EscalationStatus | None = None, limit: int = 50) -> list[Escalation]:
        """One query per queue named (properties' or orgs'), merged: open first, then newest."""
        queues = [keys.property_escalation_queue(p) for p in property_ids or []]
        queues += [keys.org_escalation_queue(o) for o in org_ids or []]
        prefix = keys.escalation_queue_status(status) if status else ""
        found: list[Item] = []
        for queue in queues:
            found += await self.store.query(queue, prefix, limit=limit, descending=True)
        found.sort(key=lambda i: i.sk, reverse=True)
        return [Escalation.model_validate(i.data) for i in found[:limit]]
