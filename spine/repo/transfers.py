"""Spine methods of a caller reaching a person: the office of a property and call transfers.

A mixin of `Spine` (spine/repo/__init__.py). A transfer changes only by compare-and-set on its
version (`replace_transfer`): Twilio retries a webhook it got no answer to, and two tries must move a
transfer one step, not two."""
from __future__ import annotations

import spine.keys as keys
from spine.office import Office
from spine.oncall import OnCallPlan
from spine.repo.base import RepoBase
from spine.store.base import Item
from spine.transfer import CallSummary, Transfer


def _transfer_item(transfer: Transfer) -> Item:
    return Item(pk=keys.transfer(transfer.id), data=transfer.model_dump(mode="json"))


class TransferRecords(RepoBase):
    # -- the office ---------------------------------------------------------------------
    async def put_office(self, office: Office) -> None:
        await self._put(office, keys.office(office.property_id))

    async def get_office(self, property_id: str) -> Office | None:
        return await self._get(Office, keys.office(property_id))

    async def office_and_oncall_plan(self, property_id: str) -> tuple[Office | None, OnCallPlan | None]:
        """Whom a transfer may ring, in one read (a caller waits on it): the property's office and
        its on-call plan."""
        office_key, plan_key = (keys.office(property_id), keys.ITEM), (keys.oncall_plan(property_id), keys.ITEM)
        found = await self.store.get_many([office_key, plan_key])
        office, plan = found.get(office_key), found.get(plan_key)
        return (Office.model_validate(office.data) if office else None,
                OnCallPlan.model_validate(plan.data) if plan else None)

    # -- a call's summary (the post-call analysis) ----------------------------------------
    async def put_call_summary(self, summary: CallSummary) -> None:
        await self._put(summary, keys.call_summary(summary.interaction_id))

    async def get_call_summary(self, interaction_id: str) -> CallSummary | None:
        return await self._get(CallSummary, keys.call_summary(interaction_id))

    # -- transfers ------------------------------------------------------------------------
    async def create_transfer(self, transfer: Transfer) -> int:
        """Write a new transfer and its place in the call's list, in one write (a caller waits on it;
        its id is fresh randomness, so no existing transfer can be overwritten). Its version now:
        a new item's, 1 on every store (Store.put_many), for a compare-and-set without a read."""
        await self.store.put_many([_transfer_item(transfer), Item(pk=keys.call_transfers(transfer.interaction_id),
                                                                  sk=transfer.id, data={"transfer_id": transfer.id})])
        return 1

    async def read_transfer(self, transfer_id: str) -> tuple[Transfer, int] | None:
        item = await self.store.get(keys.transfer(transfer_id))
        return (Transfer.model_validate(item.data), item.version) if item else None

    async def get_transfer(self, transfer_id: str) -> Transfer | None:
        found = await self.read_transfer(transfer_id)
        return found[0] if found else None

    async def replace_transfer(self, transfer: Transfer, version: int) -> bool:
        """Write `transfer` only if it is still at `version`; False when someone changed it first."""
        return await self._replace(_transfer_item(transfer), version)

    async def transfers_of_call(self, interaction_id: str) -> list[Transfer]:
        """A call's transfers, oldest first (the console shows them with the call)."""
        found = [await self.get_transfer(i.sk) for i in await self.store.query(keys.call_transfers(interaction_id))]
        return sorted((t for t in found if t is not None), key=lambda t: t.created_at)
