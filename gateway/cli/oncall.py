"""`gateway oncall set|show|clear PROPERTY_ID`: a property's on-call plan (ARCHITECTURE.md "People in
the loop"). A plan applies to pages started after it is set."""
from __future__ import annotations

import argparse

from pydantic import ValidationError

from desk.oncall.people import oncall_refusal
from gateway.cli.common import fail, open_spine, open_spine_for_writing
from gateway.settings import Settings
from spine.oncall import (
    ACK_TIMEOUT_RANGE,
    DEFAULT_ACK_TIMEOUT_S,
    DEFAULT_REPEATS,
    REPEATS_RANGE,
    OnCallPlan,
)
from spine.records import last4
from spine.repo import Spine


def register(sub) -> None:
    p = sub.add_parser("oncall", help="set, show or clear a property's on-call plan (who an emergency pages)")
    actions = p.add_subparsers(dest="action", required=True)
    put = actions.add_parser("set", help="set the plan: levels in order, each one or more person ids")
    put.add_argument("property_id")
    put.add_argument("--level", action="append", required=True, metavar="PERSON_ID[,PERSON_ID...]",
                     help="one level of the ladder (repeat for level 2, 3, ...)")
    put.add_argument("--ack-timeout", type=int, default=DEFAULT_ACK_TIMEOUT_S, metavar="S",
                     help=f"seconds a level has to acknowledge before the next is paged "
                          f"({ACK_TIMEOUT_RANGE[0]}..{ACK_TIMEOUT_RANGE[1]}, default {DEFAULT_ACK_TIMEOUT_S})")
    put.add_argument("--repeats", type=int, default=DEFAULT_REPEATS, metavar="N",
                     help=f"times the whole ladder repeats before the managers are told "
                          f"({REPEATS_RANGE[0]}..{REPEATS_RANGE[1]}, default {DEFAULT_REPEATS})")
    put.set_defaults(func=run_set)
    for name, func, text in (("show", run_show, "show the plan, numbers masked"), ("clear", run_clear,
                                                                                   "remove the plan")):
        action = actions.add_parser(name, help=text)
        action.add_argument("property_id")
        action.set_defaults(func=func)


async def run_set(args: argparse.Namespace) -> int:
    levels = [[p.strip() for p in level.split(",") if p.strip()] for level in args.level]
    try:
        plan = OnCallPlan(property_id=args.property_id, levels=levels, ack_timeout_s=args.ack_timeout,
                          repeats=args.repeats)
    except ValidationError as exc:
        return fail("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()))
    spine = await open_spine_for_writing(Settings.from_env())
    try:
        if await spine.get_property(plan.property_id) is None:
            return fail(f"no property {plan.property_id!r}")
        refused = [reason for level in plan.levels for p in level
                   if (reason := await oncall_refusal(spine, p, plan.property_id)) is not None]
        if refused:
            return fail("; ".join(refused) + " (levels are staff or vendor contacts of the property)")
        await spine.put_oncall_plan(plan)
        print(f"on-call plan for {plan.property_id} set:")
        await _print(spine, plan)
        return 0
    finally:
        await spine.store.close()


async def run_show(args: argparse.Namespace) -> int:
    spine = open_spine(read_only=True)
    try:
        plan = await spine.get_oncall_plan(args.property_id)
        if plan is None:
            print(f"{args.property_id}: no on-call plan (an emergency pages nobody; oncall/no-plan is logged)")
            return 1
        await _print(spine, plan)
        return 0
    finally:
        await spine.store.close()


async def run_clear(args: argparse.Namespace) -> int:
    spine = await open_spine_for_writing(Settings.from_env())
    try:
        if await spine.get_oncall_plan(args.property_id) is None:
            print(f"{args.property_id}: no on-call plan to clear")
            return 0
        await spine.clear_oncall_plan(args.property_id)
        print(f"{args.property_id}: on-call plan cleared (pages already running keep theirs)")
        return 0
    finally:
        await spine.store.close()


async def _print(spine: Spine, plan: OnCallPlan) -> None:
    for n, level in enumerate(plan.levels, start=1):
        people = []
        for person_id in level:
            person = await spine.get_person(person_id)
            phone = person.phones()[0] if person and person.phones() else None
            who = f"{person.display_name} " if person else ""
            people.append(f"{who}({person_id}, …{last4(phone)})" if phone else f"{who}({person_id}, no phone)")
        print(f"  level {n}: {', '.join(people)}")
    print(f"  ack timeout: {plan.ack_timeout_s} s")
    print(f"  repeats: {plan.repeats}")
