"""Planning people.csv (one Person per phone and per email: a phone another Person holds is a row
error naming both, never a merge), residents.csv (tenant roles: primary, roommate, guarantor),
staff.csv (staff roles, org-wide or per property) and vendor_contacts.csv (vendor_contact roles)."""
from __future__ import annotations

import spine.keys as keys
from desk.portfolio.files import STAFF_ROLES, FileKind, ParsedRow
from desk.portfolio.known import Known, RowFailure, RowPlan, current, released
from desk.portfolio.plan_places import changed
from desk.portfolio.record import ImportRecord
from desk.portfolio.rows import PersonRow, ResidentRow, StaffRow, VendorContactRow
from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.repo.items import claim_item, person_item, role_item

_STAFF = {PersonRoleType(name) for name in STAFF_ROLES.split("|")}


def _claim_label(kind: ClaimKind, value: str) -> str:
    # Phones are shown by their last four digits, as everywhere in logs and lists.
    return f"phone ending {value[-4:]}" if kind == ClaimKind.PHONE else f"email {value}"


def plan_person(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, PersonRow)
    if not r.display_name:
        raise RowFailure("first_name", "a person needs a first or a last name")
    wanted = [Claim(kind=k, value=v) for k, v in ((ClaimKind.PHONE, r.phone), (ClaimKind.EMAIL, r.email)) if v]
    where = f"{FileKind.PEOPLE.filename}:{row.line}"
    for claim in wanted:
        key, column, label = keys.claim(claim.kind, claim.value), claim.kind.value, _claim_label(claim.kind, claim.value)
        holder = known.stored.get((key, keys.ITEM))
        if holder is not None and holder.data["person_id"] != internal_id:
            other = holder.data["person_id"]
            named = known.stored.get((keys.person(other), keys.ITEM))
            name = f" ({named.data['display_name']})" if named is not None else ""
            raise RowFailure(column, f"{label} already belongs to Person {other}{name}, not to this row's "
                                     f"{internal_id}; merge them in the store, or fix the row")
        known.hand_out(key, internal_id, where, column, label)
    stored = current(known, rec)
    if stored is None:
        person = Person(id=internal_id, display_name=r.display_name, claims=wanted, deceased=r.deceased,
                        language=r.language, created_at=known.now)
    else:
        cols = changed(row, rec)
        person = Person.model_validate(stored.data)
        update: dict[str, object] = {}
        if cols & {"first_name", "last_name"}:
            update["display_name"] = r.display_name
        if "deceased" in cols:
            update["deceased"] = r.deceased
        if "language" in cols:
            update["language"] = r.language
        if cols & {"phone", "email"}:  # claims of other kinds (a Telegram link) stay
            others = [c for c in person.claims if c.kind not in (ClaimKind.PHONE, ClaimKind.EMAIL)]
            update["claims"] = wanted + others
        person = person.model_copy(update=update)
    plan = RowPlan(internal_id)
    plan.write(person_item(person))
    for claim in wanted:
        plan.write(claim_item(claim.kind, claim.value, internal_id))
    plan.deletes = released(known, rec, plan, internal_id)
    return plan


def _role(known: Known, rec: ImportRecord | None, role_id: str, person_id: str, role_type: PersonRoleType,
          scope: RoleScope, active: bool = True) -> PersonRole:
    return PersonRole(id=role_id, person_id=person_id, role_type=role_type, source=PersonRoleSource.PMS_SYNC,
                      scope=scope, active=active, created_at=rec.created_at if rec else known.now)


def end_left_behind(known: Known, rec: ImportRecord | None, plan: RowPlan) -> None:
    """Role rows the row held and no longer names (another unit's key, a property dropped from a
    staff role) end: active False, kept for the history."""
    for pk, sk in rec.item_keys if rec else []:
        item = known.stored.get((pk, sk))
        if (pk, sk) not in plan.owned and item is not None and sk.startswith(keys.ROLE_PREFIX):
            role = PersonRole.model_validate(item.data)
            if role.active:
                plan.write(role_item(role.model_copy(update={"active": False})), own=False)


def plan_resident(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, ResidentRow)
    person_id = known.resolve(FileKind.PEOPLE, r.person, "person")
    unit_id, property_ext = known.property_of_unit(r.unit, "unit")
    property_id, org_id = known.org_of_property(property_ext, "unit")
    if r.move_in and r.move_out and r.move_out < r.move_in:
        raise RowFailure("move_out", f"{r.move_out} is before move_in {r.move_in}")
    ended = r.move_out is not None and r.move_out < known.today
    scope = RoleScope(org_id=org_id, property_id=property_id, unit_id=unit_id, occupancy=r.kind)
    plan = RowPlan(internal_id, ended=ended)
    plan.write(role_item(_role(known, rec, internal_id, person_id, PersonRoleType.TENANT, scope, active=not ended)))
    end_left_behind(known, rec, plan)
    return plan


def plan_staff(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, StaffRow)
    if r.role.lower() not in STAFF_ROLES.split("|"):
        raise RowFailure("role", f"unknown role {r.role!r} (one of {STAFF_ROLES})")
    role_type = PersonRoleType(r.role.lower())
    person_id = known.resolve(FileKind.PEOPLE, r.person, "person")
    org_id = known.resolve(FileKind.ORGANIZATIONS, r.organization, "organization") if r.organization else None
    places = [(p, *known.org_of_property(p, "properties")) for p in r.properties]
    if org_id is None and not places:
        raise RowFailure("organization", "required when properties is empty (the role is org-wide)")
    # With no organization named, the org is the one the role was first planned with (a property
    # moved to another org does not take its old org's staff along), else the first property's.
    org_id = org_id or _planned_org(known, rec) or places[0][2]
    for ext, _, prop_org in places:
        if prop_org != org_id:
            raise RowFailure("properties", f"property {ext!r} is not in the staff member's organization")
    plan = RowPlan(internal_id)
    scopes = [(f"{internal_id}@{pid}", RoleScope(org_id=org_id, property_id=pid)) for _, pid, _ in places] \
        or [(internal_id, RoleScope(org_id=org_id))]
    for role_id, scope in scopes:
        plan.write(role_item(_role(known, rec, role_id, person_id, role_type, scope)))
    end_left_behind(known, rec, plan)
    return plan


def _planned_org(known: Known, rec: ImportRecord | None) -> str | None:
    item = current(known, rec)
    return PersonRole.model_validate(item.data).scope.org_id if item is not None else None


def plan_vendor_contact(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    r = row.row
    assert isinstance(r, VendorContactRow)
    vendor_id = known.resolve(FileKind.VENDORS, r.vendor, "vendor")
    person_id = known.resolve(FileKind.PEOPLE, r.person, "person")
    plan = RowPlan(internal_id)
    plan.write(role_item(_role(known, rec, internal_id, person_id, PersonRoleType.VENDOR_CONTACT,
                               RoleScope(vendor_id=vendor_id))))
    end_left_behind(known, rec, plan)
    return plan
