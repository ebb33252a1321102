"""`gateway office set|show PROPERTY_ID`: the office line a call is transferred to in office hours,
and those hours in the property's time zone (ARCHITECTURE.md "Voice: a caller reaches a person")."""
from __future__ import annotations

import argparse

from gateway.cli.common import fail, open_spine, open_spine_for_writing
from gateway.settings import Settings
from spine.office import Office, OfficeHours, parse_hours
from spine.phone import InvalidPhoneNumber, normalize_phone
from spine.records import last4


def register(sub) -> None:
    p = sub.add_parser("office", help="set or show a property's office line and hours (where calls are transferred)")
    actions = p.add_subparsers(dest="action", required=True)
    put = actions.add_parser("set", help="set the office's phone and hours (replaces what was set)")
    put.add_argument("property_id")
    put.add_argument("--phone", required=True, metavar="E164", help="the office line, e.g. +12065550190")
    put.add_argument("--hours", action="append", default=[], metavar='"mon-fri 09:00-17:00"',
                     help="an opening in the property's time zone (repeat for more; none: never open)")
    put.set_defaults(func=run_set)
    show = actions.add_parser("show", help="show the office's line (masked) and hours")
    show.add_argument("property_id")
    show.set_defaults(func=run_show)


async def run_set(args: argparse.Namespace) -> int:
    try:
        phone = normalize_phone(args.phone)
        hours: list[OfficeHours] = [parse_hours(spec) for spec in args.hours]
    except (InvalidPhoneNumber, ValueError) as exc:
        return fail(str(exc))
    spine = await open_spine_for_writing(Settings.from_env())
    try:
        prop = await spine.get_property(args.property_id)
        if prop is None:
            return fail(f"no property {args.property_id!r}")
        office = Office(property_id=prop.id, phone=phone, hours=hours)
        await spine.put_office(office)
        print(f"office of {prop.id} set:")
        _print(office, prop.timezone)
        return 0
    finally:
        await spine.store.close()


async def run_show(args: argparse.Namespace) -> int:
    spine = open_spine(read_only=True)
    try:
        prop = await spine.get_property(args.property_id)
        office = await spine.get_office(args.property_id)
        if prop is None or office is None:
            print(f"{args.property_id}: no office set (every transfer goes to the on-call levels)")
            return 1
        _print(office, prop.timezone)
        return 0
    finally:
        await spine.store.close()


def _print(office: Office, timezone: str) -> None:
    print(f"  phone: …{last4(office.phone)}")
    for opening in office.hours or []:
        print(f"  hours: {opening.label()} ({timezone})")
    if not office.hours:
        print("  hours: none (never open: every transfer goes to the on-call levels)")
