"""personContext.active pointers, built from the store without a model."""
from __future__ import annotations

from spine.context import ActivePointers, ActiveTour, ActiveWorkOrder
from spine.identity import OccupancyKind, PersonRole, PersonRoleType
from spine.repo import Spine
from spine.work import RenewalStatus, TourStatus, WorkOrder


async def _open_work_orders(spine: Spine, unit_ids: set[str], vendor_ids: set[str]) -> list[ActiveWorkOrder]:
    """A tenant's units are read one prefix each; a vendor's assignments need every work order
    at the properties the vendor services."""
    found: dict[str, tuple[WorkOrder, bool]] = {}
    for unit_id in sorted(unit_ids):
        unit = await spine.get_unit(unit_id)
        for wo in await spine.work_orders_of_unit(unit.property_id, unit_id) if unit else []:
            found[wo.id] = (wo, False)
    for vendor_id in sorted(vendor_ids):
        vendor = await spine.get_vendor(vendor_id)
        for property_id in sorted(vendor.services_property_ids) if vendor else []:
            for wo in await spine.work_orders_at(property_id):
                if wo.assigned_vendor_id in vendor_ids and wo.id not in found:
                    found[wo.id] = (wo, wo.unit_id not in unit_ids)
    return [ActiveWorkOrder(id=wo.id, display_id=wo.display_id, status=wo.status.value, brief=wo.brief,
                            as_vendor=as_vendor)
            for wo, as_vendor in found.values() if wo.is_open]


async def build_active_pointers(spine: Spine, person_id: str, roles: list[PersonRole] | None = None) -> ActivePointers:
    """Open work orders where the person is tenant (their units) or vendor (their vendors'
    assignments), upcoming tours, and an open renewal on a unit they signed for. `roles`: the
    person's role rows if the caller already read them."""
    if roles is None:
        roles = await spine.roles_of(person_id)
    unit_ids = {r.scope.unit_id for r in roles if r.role_type == PersonRoleType.TENANT and r.scope.unit_id}
    vendor_ids = {r.scope.vendor_id for r in roles if r.role_type == PersonRoleType.VENDOR_CONTACT and r.scope.vendor_id}
    work_orders = await _open_work_orders(spine, unit_ids, vendor_ids)
    tours = [ActiveTour(id=t.id, status=t.status.value, scheduled_at=t.scheduled_at.isoformat())
             for t in await spine.tours_of(person_id)
             if t.status in (TourStatus.REQUESTED, TourStatus.SCHEDULED)]

    primary_units = {r.scope.unit_id for r in roles
                     if r.role_type == PersonRoleType.TENANT and r.scope.occupancy == OccupancyKind.PRIMARY}
    renewal_id = None
    for unit_id in sorted(u for u in primary_units if u):
        for renewal in await spine.renewals_of_unit(unit_id):
            if renewal.status == RenewalStatus.OFFERED:
                renewal_id = renewal.id
    return ActivePointers(active_work_orders=work_orders, active_tours=tours, active_renewal_workflow_id=renewal_id)
