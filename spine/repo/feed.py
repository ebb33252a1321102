"""Spine methods of the console's change feed: each change to an escalation, a conversation or a
work order is written to its property's and its org's feed, a partition per UTC second
(`spine.keys.change_feed`), by the writer of the record (its repository method). A live page
(gateway.admin.stream) reads the seconds since its cursor: one query per scope and second, so any
replica reads what every replica wrote, and a stream resumed by its Last-Event-ID misses nothing.

The feed's clock is the wall clock (never the injected `Spine.clock`), shared by writers and readers.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timedelta

import spine.keys as keys
from spine.feed import Change, ChangeKind
from spine.identity import utcnow
from spine.repo.base import RepoBase
from spine.store.base import Item

SECOND = "%Y%m%dT%H%M%S"


class ChangeFeedRecords(RepoBase):
    async def note_change(self, kind: ChangeKind, record_id: str, property_id: str, *, org_id: str | None = None,
                          detail: dict[str, str] | None = None) -> Change:
        """Write one change to the property's feed and its org's (looked up when not given): one
        write of both items."""
        if org_id is None:
            org_id = await self._property_field(property_id, "org_id")
        at = utcnow()
        # A fixed-width time (isoformat drops zero microseconds), so positions sort as times do.
        change = Change(position=keys.change_position(f"{at:%Y-%m-%dT%H:%M:%S.%fZ}", secrets.token_hex(4)), kind=kind,
                        id=record_id,
                        property_id=property_id, at=at, detail=detail or {})
        scopes = [keys.property_scope(property_id)] + ([keys.org_scope(org_id)] if org_id else [])
        data = change.model_dump(mode="json")
        await self.store.put_many([Item(pk=keys.change_feed(scope, f"{at:{SECOND}}"), sk=change.position, data=data)
                                   for scope in scopes])
        return change

    async def changes_between(self, scopes: list[str], start: datetime, end: datetime) -> list[Change]:
        """Every change in the scopes' feeds from `start`'s second to `end`'s, oldest first."""
        found: list[Change] = []
        second = start.replace(microsecond=0)
        while second <= end:
            for scope in scopes:
                items = await self.store.query(keys.change_feed(scope, f"{second:{SECOND}}"))
                found += [Change.model_validate(i.data) for i in items]
            second += timedelta(seconds=1)
        found.sort(key=lambda c: c.position)
        return [c for c in found if start <= c.at <= end]
