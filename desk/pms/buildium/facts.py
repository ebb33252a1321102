"""Buildium's lease facts -> the spine records the tenant tools read: an Active lease's dates,
rent, deposit and outstanding balance (`get_lease_details`, `get_balance`), the renewals offered
(`respond_to_renewal`), a unit's appliances (`get_unit_appliances`). These are not import rows
(the portfolio import has no such files): each is written only when it differs from what the
store holds, so a second sync writes nothing here either. A renewal the tenant already answered
keeps their answer."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

import spine.keys as keys
from desk.pms.buildium import mapping as m
from desk.pms.buildium.records import Lease, LeaseRenewal, OutstandingBalance, RentalAppliance
from spine.property import Appliance
from spine.property import Lease as SpineLease
from spine.repo import Spine
from spine.store.base import Item
from spine.work import RenewalOffer, RenewalStatus, RenewalWorkflow

BALANCES = "BALANCES"  # sort key of the balances the last sync read, beside the sync state


def lease_id(buildium_id: int) -> str:
    return f"lease_buildium_lease-{buildium_id}"


def unit_id(buildium_id: int) -> str:
    return f"u_buildium_{m.unit_ext(buildium_id)}"


@dataclass
class Facts:
    leases: dict[int, SpineLease] = field(default_factory=dict)  # Active leases read, by Buildium id
    lease_of_tenant: dict[int, int] = field(default_factory=dict)  # tenant -> their Active lease
    balances: dict[int, float] = field(default_factory=dict)  # lease -> what it owes (listed ones)
    renewals: list[RenewalWorkflow] = field(default_factory=list)
    appliances: dict[str, list[Appliance]] = field(default_factory=dict)  # unit id -> its appliances

    def add_lease(self, lease: Lease) -> None:
        if lease.LeaseStatus != "Active" or lease.LeaseFromDate is None:
            return  # a Future lease would shadow the current one (Spine.current_lease: the latest start)
        start = lease.LeaseFromDate
        money = lease.AccountDetails
        self.leases[lease.Id] = SpineLease(
            id=lease_id(lease.Id), unit_id=unit_id(lease.UnitId), start=start,
            end=lease.LeaseToDate or start + timedelta(days=365), monthly_rent_usd=round(money.Rent or 0) if money else 0,
            deposit_usd=round(money.SecurityDeposit or 0) if money else 0)
        self.lease_of_tenant.update({t.Id: lease.Id for t in lease.Tenants or [] if t.Status != "MovedOut"})

    def add_balance(self, balance: OutstandingBalance) -> None:
        self.balances[balance.LeaseId] = round(balance.TotalBalance, 2)

    def add_renewal(self, renewal: LeaseRenewal) -> None:
        held = [self.leases[lid] for t in renewal.TenantIds or [] if (lid := self.lease_of_tenant.get(t)) in self.leases]
        if not held or renewal.LeaseFromDate is None or renewal.LeaseToDate is None:
            return
        months = _months(renewal.LeaseFromDate, renewal.LeaseToDate)
        self.renewals.append(RenewalWorkflow(
            id=f"ren_buildium_{renewal.Id}", unit_id=held[0].unit_id, lease_id=held[0].id,
            offers=[RenewalOffer(term_months=months, monthly_rent_usd=round(renewal.Rent or held[0].monthly_rent_usd))],
            respond_by=held[0].end))

    def add_appliance(self, appliance: RentalAppliance) -> None:
        if appliance.UnitId:
            self.appliances.setdefault(unit_id(appliance.UnitId), []).append(Appliance(
                kind=appliance.Name or "appliance", brand=appliance.Make or "", model=appliance.Model or ""))


def _months(start: date, end: date) -> int:
    return max(1, round((end - start).days / 30.44))


async def _stored_leases(spine: Spine, ids: list[int]) -> dict[int, SpineLease]:
    """The store's leases of these Buildium ids, read in one batch."""
    wanted = {(keys.lease(lease_id(b)), keys.ITEM): b for b in ids}
    found = await spine.store.get_many(list(wanted))
    return {wanted[k]: SpineLease.model_validate(item.data) for k, item in found.items()}


async def _balances(spine: Spine, facts: Facts) -> tuple[dict[int, float], bool]:
    """Every lease's balance to write: the listed ones, and 0 for one listed last time and not now
    (paid). The list has no change filter, so each sync reads it whole; what it listed is kept."""
    item = await spine.store.get(keys.pms_state(m.SOURCE), BALANCES)
    before = {int(k): float(v) for k, v in (item.data if item else {}).items()}
    return {**dict.fromkeys(before, 0.0), **facts.balances}, before != facts.balances


async def apply_facts(spine: Spine, facts: Facts, *, balances_read: bool = True) -> int:
    """Write what differs; the writes made. Without `balances_read` (a webhook's one lease) each
    lease keeps the balance the store holds."""
    writes = 0
    balances, moved = await _balances(spine, facts) if balances_read else ({}, False)
    ids = sorted(set(facts.leases) | set(balances))
    stored = await _stored_leases(spine, ids)
    for bid in ids:
        old = stored.get(bid)
        lease = facts.leases.get(bid) or old
        if lease is None:
            continue  # owes on a lease the gateway does not hold (Past, Future)
        lease = lease.model_copy(update={"balance_usd": balances.get(bid, old.balance_usd if old else 0.0)})
        if old != lease:
            await spine.put_lease(lease)
            writes += 1
    if moved:  # after the leases: a crash before this re-reads the same change
        await spine.store.put(Item(pk=keys.pms_state(m.SOURCE), sk=BALANCES,
                                   data={str(k): v for k, v in facts.balances.items()}))
    for renewal in facts.renewals:
        old_renewal = await spine.get_renewal(renewal.id)
        if old_renewal is not None and (old_renewal.status != RenewalStatus.OFFERED or old_renewal == renewal):
            continue  # answered by the tenant, or unchanged
        await spine.put_renewal(renewal)
        writes += 1
    for uid, appliances in facts.appliances.items():
        unit = await spine.get_unit(uid)
        if unit is not None and unit.appliances != appliances:
            await spine.put_unit(unit.model_copy(update={"appliances": appliances}))
            writes += 1
    return writes
