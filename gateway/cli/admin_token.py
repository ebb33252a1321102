"""`gateway admin-token PERSON_ID`: issue an admin token to a staff person (printed once, stored
only as its hash, expiring); `gateway admin-token PERSON_ID --revoke` revokes every admin token of
that person and ends their signed-in sessions. GATEWAY_ADMIN_TOKEN stays the operator's own."""
from __future__ import annotations

import sys
from datetime import timedelta

from desk.console.admin_scope import is_staff
from gateway.cli.common import open_spine
from spine.admin_access import issue_token

DEFAULT_TTL_DAYS = 30


def register(sub) -> None:
    p = sub.add_parser("admin-token", help="issue (or --revoke) a staff person's admin token")
    p.add_argument("person_id", help="the staff Person the token signs in as, e.g. p_priya")
    p.add_argument("--revoke", action="store_true", help="revoke all of the person's tokens and sessions")
    p.add_argument("--days", type=int, default=DEFAULT_TTL_DAYS, help=f"days until it expires ({DEFAULT_TTL_DAYS})")
    p.set_defaults(func=run)


async def run(args) -> int:
    spine = open_spine()
    try:
        if args.revoke:
            live = await spine.revoke_admin_access(args.person_id)
            print(f"revoked {live} live admin token(s) of {args.person_id} and ended their sessions")
            return 0
        if not 1 <= args.days <= 365:
            print("--days must be between 1 and 365", file=sys.stderr)
            return 2
        if not await is_staff(spine, args.person_id):
            print(f"{args.person_id} is not a staff person (no active staff role, or not on file); "
                  "only staff get admin tokens", file=sys.stderr)
            return 1
        token, record = issue_token(args.person_id, timedelta(days=args.days))
        await spine.put_admin_token(record)
        print(token)
        print(f"admin token for {args.person_id}, expires {record.expires_at:%Y-%m-%d %H:%M} UTC; shown once, "
              f"stored only as its hash", file=sys.stderr)
        return 0
    finally:
        await spine.store.close()
