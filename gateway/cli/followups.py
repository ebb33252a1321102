"""`gateway followups due [--at ISO8601] [--property PROPERTY_ID]`: what the follow-ups due by that
moment would do (send, wait for the contact window, stop) and why, to whom, sending nothing."""
from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from desk.followups.preview import preview_due
from gateway.cli.common import open_spine
from spine.masking import mask_addresses


def register(sub) -> None:
    p = sub.add_parser("followups", help="the follow-ups Clara will send (tour reminders, close-outs, renewal offers)")
    actions = p.add_subparsers(dest="action", required=True)
    due = actions.add_parser("due", help="what would go out by then, and why; sends nothing")
    due.add_argument("--at", type=_moment, default=None, metavar="ISO8601",
                     help="the moment to judge at (default now; a time without a zone is UTC)")
    due.add_argument("--property", dest="property_id", default=None, metavar="PROPERTY_ID")
    due.add_argument("--json", action="store_true", help="one JSON object per follow-up")
    due.set_defaults(func=run_due)


def _moment(text: str) -> datetime:
    try:
        at = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 moment: {text!r}") from exc
    return at if at.tzinfo else at.replace(tzinfo=UTC)


async def run_due(args: argparse.Namespace) -> int:
    spine = open_spine(read_only=True)
    try:
        at = args.at or spine.clock()
        found = await preview_due(spine, at, args.property_id)
    finally:
        await spine.store.close()
    if args.json:
        for seen in found:
            print(json.dumps(seen.model_dump(mode="json"), ensure_ascii=False))
        return 0
    print(f"follow-ups due by {at.isoformat()}: {len(found)}"
          f" ({sum(1 for s in found if s.action == 'send')} would be sent)", file=sys.stderr)
    for seen in found:
        who = f"{seen.name or seen.person_id} ({seen.person_id})"
        print(f"{seen.action:5} {seen.followup_id}  {seen.kind} [{seen.purpose}] to {who} at {seen.property_id}, "
              f"following {seen.follows}, due {seen.due_at.isoformat()}: {seen.why}")
        if seen.body:
            print(f"      {seen.channel}: {mask_addresses(seen.body)}")
    return 0
