"""The store items of the domain records, built once: `Spine.put_*` writes them one at a time, an
import (desk.portfolio) collects thousands and writes them in batches. Both go through here, so
a record's keys and index entries cannot differ by who wrote it."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

import spine.keys as keys
from spine.identity import ClaimKind, Person, PersonRole, PersonRoleType
from spine.property import Organization, Property, Unit, Vendor
from spine.store.base import Item
from spine.work import WorkOrder


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")


def record_item(model: BaseModel, pk: str, sk: str = keys.ITEM, *, gsi1pk: str | None = None,
                gsi1sk: str | None = None) -> Item:
    # model_construct: the fields are ours and typed; an import builds tens of thousands of these.
    return Item.model_construct(pk=pk, sk=sk, data=_dump(model), version=0, gsi1pk=gsi1pk, gsi1sk=gsi1sk)


def role_index_key(role: PersonRole) -> str:
    """Roles are indexed by what they are scoped to, so 'who occupies unit 204' and
    'who speaks for vendor v_carlos' are single index queries."""
    s = role.scope
    if role.role_type == PersonRoleType.TENANT and s.unit_id:
        return keys.unit_roles(s.unit_id)
    if role.role_type == PersonRoleType.VENDOR_CONTACT and s.vendor_id:
        return keys.vendor_roles(s.vendor_id)
    if role.role_type == PersonRoleType.PROSPECT and s.property_id:
        return keys.property_roles(s.property_id)
    return keys.org_roles(s.org_id)


def person_item(person: Person) -> Item:
    return record_item(person, keys.person(person.id))


def claim_item(kind: ClaimKind, value: str, person_id: str) -> Item:
    return Item.model_construct(pk=keys.claim(kind, value), sk=keys.ITEM, data={"person_id": person_id}, version=0,
                                gsi1pk=None, gsi1sk=None)


def role_item(role: PersonRole) -> Item:
    return record_item(role, keys.person(role.person_id), keys.role(role.id), gsi1pk=role_index_key(role),
                       gsi1sk=role.person_id)


def org_item(org: Organization) -> Item:
    return record_item(org, keys.org(org.id))


def property_item(prop: Property) -> Item:
    return record_item(prop, keys.property_(prop.id), gsi1pk=keys.PROPERTIES, gsi1sk=prop.id)


def property_address_keys(prop: Property) -> list[str]:
    """The wire addresses that reach a property: its numbers, its email, its Telegram bot."""
    addresses = [keys.number(n) for n in sorted({n for n in (prop.sms_number, prop.voice_number) if n is not None})]
    if prop.email:
        addresses.append(keys.email(prop.email))
    if prop.telegram_bot_id:
        addresses.append(keys.telegram_bot(prop.telegram_bot_id))
    return addresses


def property_address_item(key: str, property_id: str) -> Item:
    return Item.model_construct(pk=key, sk=keys.ITEM, data={"property_id": property_id}, version=0, gsi1pk=None,
                                gsi1sk=None)


def unit_item(unit: Unit) -> Item:
    return record_item(unit, keys.unit(unit.id), gsi1pk=keys.property_units(unit.property_id), gsi1sk=unit.number)


def vendor_item(vendor: Vendor) -> Item:
    return record_item(vendor, keys.vendor(vendor.id), gsi1pk=keys.VENDORS, gsi1sk=vendor.id)


def work_order_item(wo: WorkOrder) -> Item:
    # Sorted by unit, so one unit's work orders are one prefix read (a tenant's first
    # contact reads only theirs, not the whole property's).
    return record_item(wo, keys.work_order(wo.id), gsi1pk=keys.property_work_orders(wo.property_id),
                       gsi1sk=keys.work_order_position(wo.unit_id, wo.id))


def work_order_board_items(wo: WorkOrder, org_id: str | None) -> list[Item]:
    """The work order's copies on the console's board (`spine.keys.work_order_board`): in its
    property's and its org's board, each all / by status / by priority / by both. A copy is the
    board's row (no notes or changes), so a page is one query with nothing else read."""
    scopes = [keys.property_scope(wo.property_id)] + ([keys.org_scope(org_id)] if org_id else [])
    row = wo.model_dump(mode="json", exclude={"notes", "changes", "description", "photo_urls"})
    position = keys.work_order_board_position(wo.created_at.isoformat(), wo.id)
    return [Item.model_construct(pk=keys.work_order_board(scope, status, priority), sk=position, data=row, version=0,
                                 gsi1pk=None, gsi1sk=None)
            for scope in scopes for status in (None, wo.status) for priority in (None, wo.priority)]
