"""`Spine`: typed reads and writes of the domain over any Store.

Every key layout is spelled in spine/keys/; the records live here (with the mixins: `repo_records`
for the inbound log, outbox, events and traces; `repo_tools` for tool runs; `repo_escalations` for escalations and the console's queue;
`repo_conversations` for conversations and their takeover state;
`repo_tours` for tours and their per-property index; `repo_admin` for admin tokens and sessions;
`repo_verification` for voice caller verification; `repo_oncall` for on-call plans and pages;
`repo_dispatch` for vendor dispatches; `repo_transfers` for the office and call transfers; `repo_followups` for
follow-ups; `repo_work_orders` for the console's work-order board; `repo_feed` for the console's change feed;
`repo.pms` for a PMS connector's webhook inbox and write-backs),
so the SQLite and DynamoDB backends stay dumb item stores.
"""
from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

import spine.keys as keys
from spine.context import PersonContext
from spine.identity import ClaimKind, Person, PersonCategory, PersonRole, utcnow
from spine.property import Lease, Organization, Property, Unit, Vendor
from spine.repo.admin import AdminRecords
from spine.repo.conversations import ConversationRecords
from spine.repo.dispatch import DispatchRecords
from spine.repo.escalations import EscalationRecords
from spine.repo.feed import ChangeFeedRecords
from spine.repo.followups import FollowUpRecords
from spine.repo.items import (
    claim_item,
    org_item,
    person_item,
    property_address_item,
    property_address_keys,
    property_item,
    role_index_key,
    role_item,
    unit_item,
    vendor_item,
    work_order_item,
)
from spine.repo.oncall import OnCallRecords
from spine.repo.pms import PmsRecords
from spine.repo.records import InteractionRecords
from spine.repo.tools import ToolRecords
from spine.repo.tours import TourRecords
from spine.repo.transfers import TransferRecords
from spine.repo.verification import VerificationRecords
from spine.repo.work_orders import WorkOrderBoardRecords
from spine.store.base import ABSENT, Item
from spine.work import Prospect, RenewalWorkflow, WorkOrder

NOT_LEADS = frozenset({PersonCategory.SPAM, PersonCategory.WRONG_NUMBER})


class SequenceValue(BaseModel):
    """A named counter's item (`next_sequence`): {"value": n}."""
    value: int

class Spine(InteractionRecords, ToolRecords, EscalationRecords, ConversationRecords, TourRecords, AdminRecords,
            VerificationRecords, OnCallRecords, DispatchRecords, TransferRecords, FollowUpRecords,
            WorkOrderBoardRecords, ChangeFeedRecords, PmsRecords):
    """Typed reads and writes of the domain (the mixins add the interaction records, tool runs,
    tours, admin tokens and caller verification; RepoBase holds the store and the item helpers)."""

    # -- people, claims, roles ---------------------------------------------------------
    async def get_person(self, person_id: str) -> Person | None:
        return await self._get(Person, keys.person(person_id))

    async def get_people(self, person_ids: Iterable[str]) -> dict[str, Person]:
        """The People with these ids that exist, by id, in one read (the store's batch get)."""
        wanted = {(keys.person(p), keys.ITEM): p for p in person_ids}
        found = await self.store.get_many(list(wanted)) if wanted else {}
        return {wanted[key]: Person.model_validate(item.data) for key, item in found.items() if key in wanted}

    async def put_person(self, person: Person) -> None:
        await self.store.put(person_item(person))
        for claim in person.claims:
            await self.claim(claim.kind, claim.value, person.id)

    async def claim(self, kind: ClaimKind, value: str, person_id: str, *, if_absent: bool = False) -> bool:
        """Point a wire address at a Person. With if_absent, only the first claimant wins
        (that is how racing mints from one unknown number end with one Person)."""
        if not if_absent:
            await self.store.put(claim_item(kind, value, person_id))
            return True
        return await self._replace(claim_item(kind, value, person_id), ABSENT)

    async def create_person(self, person: Person) -> bool:
        """Write a Person record only if absent, claims untouched: the router's mint takes the
        phone claim itself, with if_absent, as the arbiter of racing mints."""
        return await self._create(person, keys.person(person.id))

    async def create_role(self, role: PersonRole) -> bool:
        """put_role, but only if no role with this id exists (replayed mints change nothing)."""
        return await self._create(role, keys.person(role.person_id), keys.role(role.id), gsi1pk=role_index_key(role),
                                  gsi1sk=role.person_id)

    async def create_prospect(self, prospect: Prospect) -> bool:
        """put_prospect, but only if absent (a late racing mint never resets a qualified prospect).
        A new one is a lead in the reports, unless the Person is in the spam or wrong-number lane."""
        created = await self._create(prospect, keys.person(prospect.person_id), keys.prospect(prospect.property_id))
        if created:
            person = await self.get_person(prospect.person_id)
            if person is None or person.category not in NOT_LEADS:
                await self.bump(prospect.property_id, "leads.new")
        return created

    async def find_person_id_by_claim(self, kind: ClaimKind, value: str) -> str | None:
        item = await self.store.get(keys.claim(kind, value))
        return item.data["person_id"] if item else None

    async def put_role(self, role: PersonRole) -> None:
        await self.store.put(role_item(role))

    async def roles_of(self, person_id: str) -> list[PersonRole]:
        return [r for r in await self._query(PersonRole, keys.person(person_id), keys.ROLE_PREFIX) if r.active]

    async def roles_scoped_to(self, index_key: str) -> list[PersonRole]:
        """Roles under one scope key: UNITROLES#unit, VENDORROLES#vendor, PROPROLES#prop, ORGROLES#org."""
        return [r for r in await self._index(PersonRole, index_key) if r.active]

    # -- organizations, properties, units, leases, vendors ------------------------------
    async def put_org(self, org: Organization) -> None:
        await self._put_reference_item(org_item(org))

    async def get_org(self, org_id: str) -> Organization | None:
        return await self._get_reference(Organization, keys.org(org_id))

    async def put_property(self, prop: Property) -> None:
        await self._put_reference_item(property_item(prop))
        for key in property_address_keys(prop):
            await self._put_reference_item(property_address_item(key, prop.id))

    async def get_property(self, property_id: str) -> Property | None:
        return await self._get_reference(Property, keys.property_(property_id))

    async def list_properties(self) -> list[Property]:
        return await self._index(Property, keys.PROPERTIES)

    async def property_for_number(self, number: str) -> Property | None:
        return await self._property_at(keys.number(number))

    async def property_for_email(self, address: str) -> Property | None:
        """The property whose address an email was sent to (case-insensitive)."""
        return await self._property_at(keys.email(address))

    async def property_for_telegram_bot(self, bot_id: str) -> Property | None:
        return await self._property_at(keys.telegram_bot(bot_id))

    async def _property_at(self, key: str) -> Property | None:
        hit, data = self.reference.get(key)
        if not hit:
            item = await self.store.get(key)
            data = item.data if item else None
            self.reference.put(key, data)
        return await self.get_property(data["property_id"]) if data else None

    async def put_unit(self, unit: Unit) -> None:
        await self._put_reference_item(unit_item(unit))

    async def get_unit(self, unit_id: str) -> Unit | None:
        return await self._get_reference(Unit, keys.unit(unit_id))

    async def units_of(self, property_id: str) -> list[Unit]:
        return await self._index(Unit, keys.property_units(property_id))

    async def put_lease(self, lease: Lease) -> None:
        await self._put(lease, keys.lease(lease.id), gsi1pk=keys.unit_leases(lease.unit_id), gsi1sk=lease.start.isoformat())

    async def current_lease(self, unit_id: str) -> Lease | None:
        leases = await self._index(Lease, keys.unit_leases(unit_id), descending=True, limit=1)
        return leases[0] if leases else None

    async def put_vendor(self, vendor: Vendor) -> None:
        await self._put_reference_item(vendor_item(vendor))

    async def get_vendor(self, vendor_id: str) -> Vendor | None:
        return await self._get_reference(Vendor, keys.vendor(vendor_id))

    async def list_vendors(self) -> list[Vendor]:
        return await self._index(Vendor, keys.VENDORS)

    # -- work orders, prospects, renewals ----------------------------------------------
    async def put_work_order(self, wo: WorkOrder) -> None:
        before = await self.get_work_order(wo.id)  # its board copies move with a status or priority
        await self.store.put(work_order_item(wo))
        await self.work_order_written(before, wo)

    async def get_work_order(self, wo_id: str) -> WorkOrder | None:
        """The work order, remembering what was read (a later note_work_order writes only what its
        caller changed)."""
        item = await self.store.get(keys.work_order(wo_id))
        return WorkOrder.model_validate(item.data).remember_read(item.data) if item else None

    async def work_orders_at(self, property_id: str) -> list[WorkOrder]:
        return await self._index(WorkOrder, keys.property_work_orders(property_id))

    async def work_orders_of_unit(self, property_id: str, unit_id: str) -> list[WorkOrder]:
        return await self._index(WorkOrder, keys.property_work_orders(property_id), keys.work_order_position(unit_id))

    async def next_sequence(self, name: str) -> int:
        """A gap-free counter on compare-and-set (display ids such as WO-812)."""
        changed = await self._compare_and_set(SequenceValue, keys.sequence(name), tries=None,  # until it wins
                                              change=lambda s: SequenceValue(value=(s.value if s else 0) + 1))
        assert changed.after is not None  # every try writes; only a won race returns
        return changed.after.value

    async def ensure_sequence_at_least(self, name: str, floor: int) -> None:
        # One try: someone else moved it if it lost, and it only ever goes up.
        await self._compare_and_set(SequenceValue, keys.sequence(name), tries=1,
                                    change=lambda s: SequenceValue(value=floor) if s is None or s.value < floor else None)

    async def put_prospect(self, prospect: Prospect) -> None:
        await self._put(prospect, keys.person(prospect.person_id), keys.prospect(prospect.property_id))

    async def get_prospect(self, person_id: str, property_id: str) -> Prospect | None:
        return await self._get(Prospect, keys.person(person_id), keys.prospect(property_id))

    async def put_renewal(self, renewal: RenewalWorkflow) -> None:
        await self._put(renewal, keys.renewal(renewal.id), gsi1pk=keys.unit_renewals(renewal.unit_id), gsi1sk=renewal.id)

    async def get_renewal(self, renewal_id: str) -> RenewalWorkflow | None:
        return await self._get(RenewalWorkflow, keys.renewal(renewal_id))

    async def renewals_of_unit(self, unit_id: str) -> list[RenewalWorkflow]:
        return await self._index(RenewalWorkflow, keys.unit_renewals(unit_id))

    # -- personContext ------------------------------------------------------------------
    async def get_context(self, person_id: str) -> PersonContext | None:
        return await self._get(PersonContext, keys.person(person_id), keys.CONTEXT)

    async def put_context(self, context: PersonContext) -> None:
        await self._put(context, keys.person(context.person_id), keys.CONTEXT)

    async def mark_once(self, key: str) -> bool:
        """Create-if-absent marker: True the first time `key` is marked, False on every replay."""
        first = await self._replace(Item(pk=keys.once(key), data={"at": utcnow().isoformat()}), ABSENT)
        self.saw_mark(key)  # made now or before: marked either way
        return first
