"""`gateway whois PHONE --property ID`: the resolved Person and active roles."""
from __future__ import annotations

from gateway.cli.common import fail, open_spine
from spine.context import Channel
from spine.identity import ClaimKind, PersonRole
from spine.participants import normalize_address, resolve_person
from spine.phone import InvalidPhoneNumber
from spine.repo import Spine
from spine.roles import resolve_active_roles
from spine.store import StoreError, StoreUnavailable


def register(sub) -> None:
    p = sub.add_parser("whois", help="resolve a phone number to a Person and its roles at a property")
    p.add_argument("phone")
    p.add_argument("--property", required=True, help="inbound property id, e.g. pf_yale")
    p.set_defaults(func=run)


async def describe_scope(spine: Spine, role: PersonRole) -> str:
    """Where a role holds, in the words a property manager uses: "unit 204 (primary)"."""
    s = role.scope
    if s.unit_id:
        unit = await spine.get_unit(s.unit_id)
        where = f"unit {unit.number}" if unit else f"unit id {s.unit_id} (no such unit)"
        return f"{where} ({s.occupancy.value})" if s.occupancy else where
    if s.vendor_id:
        vendor = await spine.get_vendor(s.vendor_id)
        return f"{vendor.name} ({s.vendor_id})" if vendor else f"vendor {s.vendor_id} (no such vendor)"
    if s.property_id:
        return f"property {s.property_id}"
    if s.org_id:
        org = await spine.get_org(s.org_id)
        return f"org {org.name} ({s.org_id})" if org else f"org {s.org_id}"
    return "every property"


async def run(args) -> int:
    try:
        e164 = normalize_address(Channel.SMS, args.phone)
    except InvalidPhoneNumber as exc:
        return fail(str(exc), 2)
    try:
        spine = open_spine(read_only=True)
    except StoreError as exc:
        return fail(str(exc), 2)
    try:
        return await _whois(spine, e164, args.property)
    except StoreUnavailable as exc:
        return fail(f"store unavailable: {exc}", 1)
    except StoreError as exc:
        return fail(f"store error: {exc}", 1)
    finally:
        await spine.store.close()


async def _whois(spine: Spine, e164: str, property_id: str) -> int:
    prop = await spine.get_property(property_id)
    if prop is None:
        return fail(f"no property {property_id!r} (try `gateway seed`)", 2)
    person = await resolve_person(spine, Channel.SMS, e164)
    if person is None:
        print(f"{e164}: no Person (unknown caller; the router would run intent hints)")
        return 0
    claimed_by = await spine.find_person_id_by_claim(ClaimKind.PHONE, e164)
    merged = f", merged from {claimed_by}" if claimed_by and claimed_by != person.id else ""
    print(f"{e164} -> {person.id} ({person.display_name}){merged}")
    flags = [f"category={person.category}"] if person.category else []
    flags += ["deceased"] if person.deceased else []
    if flags:
        print("  " + ", ".join(flags))
    roles = await resolve_active_roles(spine, person.id, property_id)
    if not roles:
        print(f"  no active roles at {prop.id} ({prop.name})")
        return 0
    print(f"  active roles at {prop.id} ({prop.name}):")
    for role in roles:
        print(f"    {role.role_type.value:<15} {await describe_scope(spine, role)}  [source {role.source.value}]")
    return 0
