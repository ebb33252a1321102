"""Planning the rows of organizations.csv, properties.csv, units.csv and vendors.csv. A changed row
updates only the columns that changed on the record as stored (what the gateway keeps beside an
import, such as facility facts, appliances or a Telegram bot, stays)."""
from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

import spine.keys as keys
from desk.portfolio.files import FileKind, ParsedRow
from desk.portfolio.known import Known, RowFailure, RowPlan, current, released
from desk.portfolio.record import ImportRecord
from desk.portfolio.rows import OrganizationRow, PropertyRow, UnitRow, VendorRow
from spine.property import Organization, Property, Unit, Vendor
from spine.repo.items import (
    org_item,
    property_address_item,
    property_address_keys,
    property_item,
    unit_item,
    vendor_item,
)
from spine.store.base import Item

M = TypeVar("M", bound=BaseModel)


def changed(row: ParsedRow, rec: ImportRecord | None) -> set[str]:
    """The columns whose cells differ from the last import (all of them for a new row)."""
    if rec is None:
        return set(row.cells)
    return {c for c, v in row.cells.items() if rec.cells.get(c) != v}


def updated_record(stored: Item | None, model: type[M], fields: dict[str, Any], cols: set[str],
                   by_col: dict[str, str]) -> M:
    """The stored record with only the changed columns' fields replaced; a new record if none is stored."""
    if stored is None:
        return model.model_validate(fields)
    base = model.model_validate(stored.data)
    return base.model_copy(update={f: fields[f] for c, f in by_col.items() if c in cols})


def plan_organization(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, OrganizationRow)
    plan = RowPlan(internal_id)
    plan.write(org_item(Organization(id=internal_id, name=r.name)))
    return plan


def plan_property(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, PropertyRow)
    org_id = known.resolve(FileKind.ORGANIZATIONS, r.organization, "organization")
    fields = dict(id=internal_id, org_id=org_id, name=r.name, sms_number=r.phone, voice_number=r.phone,
                  email=r.email, timezone=r.timezone, address=r.address)
    by_col = {"organization": "org_id", "name": "name", "phone": "sms_number", "email": "email",
              "timezone": "timezone", "address": "address"}
    prop: Property = updated_record(current(known, rec), Property, fields, changed(row, rec), by_col)
    if "phone" in changed(row, rec):
        prop = prop.model_copy(update={"voice_number": r.phone})
    plan = RowPlan(internal_id)
    plan.write(property_item(prop))
    where = f"{FileKind.PROPERTIES.filename}:{row.line}"
    for key in property_address_keys(prop):
        column = "phone" if key.startswith("NUMBER#") else "email" if key.startswith("EMAIL#") else "telegram"
        holder = known.stored.get((key, keys.ITEM))
        if holder is not None and holder.data.get("property_id") != internal_id:
            raise RowFailure(column, f"{key.split('#', 1)[1]} already reaches property {holder.data['property_id']}")
        known.hand_out(key, internal_id, where, column, f"{column} {key.split('#', 1)[1]}")
        plan.write(property_address_item(key, internal_id))
    plan.deletes = released(known, rec, plan, internal_id)
    return plan


def plan_unit(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, UnitRow)
    property_id = known.resolve(FileKind.PROPERTIES, r.property, "property")
    fields = dict(id=internal_id, property_id=property_id, number=r.name, bedrooms=r.bedrooms, bathrooms=r.bathrooms,
                  monthly_rent_usd=r.rent_usd, available_from=r.available_on, active=True)
    by_col = {"property": "property_id", "name": "number", "bedrooms": "bedrooms", "bathrooms": "bathrooms",
              "rent_usd": "monthly_rent_usd", "available_on": "available_from"}
    unit: Unit = updated_record(current(known, rec), Unit, fields, changed(row, rec), by_col)
    plan = RowPlan(internal_id)
    plan.write(unit_item(unit.model_copy(update={"active": True})))
    return plan


def plan_vendor(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, VendorRow)
    served = [known.resolve(FileKind.PROPERTIES, p, "properties") for p in r.properties]
    fields = dict(id=internal_id, name=r.name, trade=", ".join(r.trades) or "general", phone=r.phone, email=r.email,
                  services_property_ids=served, active=True)
    by_col = {"name": "name", "trades": "trade", "phone": "phone", "email": "email",
              "properties": "services_property_ids"}
    vendor: Vendor = updated_record(current(known, rec), Vendor, fields, changed(row, rec), by_col)
    plan = RowPlan(internal_id)
    plan.write(vendor_item(vendor.model_copy(update={"active": True})))
    return plan
