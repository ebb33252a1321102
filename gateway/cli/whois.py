"""`gateway whois PHONE --property ID`: the resolved Person and active roles."""
from __future__ import annotations

import sys

from gateway.cli.common import open_spine
from spine.context import Channel
from spine.participants import normalize_address, resolve_person
from spine.phone import InvalidPhoneNumber
from spine.roles import resolve_active_roles


def register(sub) -> None:
    p = sub.add_parser("whois", help="resolve a phone number to a Person and its roles at a property")
    p.add_argument("phone")
    p.add_argument("--property", required=True, help="inbound property id, e.g. pf_yale")
    p.set_defaults(func=run)


async def run(args) -> int:
    try:
        e164 = normalize_address(Channel.SMS, args.phone)
    except InvalidPhoneNumber as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    spine = open_spine()
    try:
        if await spine.get_property(args.property) is None:
            print(f"error: no property {args.property!r} (try `gateway seed`)", file=sys.stderr)
            return 2
        person = await resolve_person(spine, Channel.SMS, e164)
        if person is None:
            print(f"{e164}: no Person (unknown caller; the router would run intent hints)")
            return 0
        print(f"{e164} -> {person.id} ({person.display_name})")
        flags = [f"category={person.category}"] if person.category else []
        flags += ["deceased"] if person.deceased else []
        if flags:
            print("  " + ", ".join(flags))
        roles = await resolve_active_roles(spine, person.id, args.property)
        if not roles:
            print(f"  no active roles at {args.property}")
        for role in roles:
            s = role.scope
            where = ", ".join(f"{k}={v}" for k, v in s.model_dump(exclude_none=True).items())
            print(f"  {role.role_type.value:<15} {where}  (source {role.source.value})")
        return 0
    finally:
        await spine.store.close()
