"""Work orders and their board, tours, renewals, the named counters, and follow-ups (desk/followups)."""
from __future__ import annotations

import zlib
from datetime import UTC, datetime


# -- work orders, tours, renewals, sequences -----------------------------------------------
def work_order(wo_id: str) -> str:
    return f"WO#{wo_id}"


def property_work_orders(property_id: str) -> str:
    return f"PROPWO#{property_id}"


def work_order_position(unit_id: str | None, wo_id: str = "") -> str:
    """The index sort key of a work order: by unit, so one unit's orders are one prefix."""
    return f"{unit_id or ''}#{wo_id}"


# The staff console's work-order board: a copy of each work order in its property's and its org's
# board, each all / of one status / of one priority / of both, sorted newest first by creation (a
# position that never changes), so every filter is one descending query. A status or priority
# change moves the copies that name it.
WORK_ORDER_BOARD = "WOBOARD#"


def work_order_board(scope: str, status: str | None = None, priority: str | None = None) -> str:
    """One board partition; `scope` is property_scope(...) or org_scope(...)."""
    return f"{WORK_ORDER_BOARD}{scope}#{status or '*'}#{priority or '*'}"


def property_scope(property_id: str) -> str:
    """What the console reads as one: a property's records (board, change feed)."""
    return f"p:{property_id}"


def org_scope(org_id: str) -> str:
    """What the console reads as one: a whole org's records (board, change feed)."""
    return f"o:{org_id}"


def work_order_board_position(created_at: str, wo_id: str) -> str:
    return f"{created_at}#{wo_id}"


def tour(tour_id: str) -> str:
    return f"TOUR#{tour_id}"


def person_tours(person_id: str) -> str:
    return f"PERSONTOURS#{person_id}"


def property_tours(property_id: str) -> str:
    """A property's tour index, sorted by tour_slot (local time)."""
    return f"PROPTOURS#{property_id}"


def tour_slot(local_minute: str, tour_id: str) -> str:
    """A tour's sort key in its property's index: `2026-12-01T15:00#<tour id>` (a day is a prefix)."""
    return f"{local_minute}#{tour_id}"


def renewal(renewal_id: str) -> str:
    return f"RENEWAL#{renewal_id}"


def unit_renewals(unit_id: str) -> str:
    return f"UNITRENEWAL#{unit_id}"


def sequence(name: str) -> str:
    return f"SEQ#{name}"


# -- follow-ups (desk/followups): one item each, an index by status and due time -----------
def followup(followup_id: str) -> str:
    return f"FOLLOWUP#{followup_id}"


# The index of each status is spread over this many partitions, so no one DynamoDB partition takes
# every follow-up's write (each create, move and send writes the index); a tick reads each shard.
FOLLOWUP_SHARDS = 8


def followup_shard(followup_id: str) -> int:
    """A follow-up's shard: stable for its id (CRC-32, not Python's per-process salted hash)."""
    return zlib.crc32(followup_id.encode()) % FOLLOWUP_SHARDS


def followups_with_status(status: str, shard: int) -> str:
    """One index partition of follow-ups in `status`, sorted by due time. Shard 0 keeps the name the
    index had before it was sharded, so a follow-up written then is still found (in shard 0,
    until its next write moves it to its own)."""
    return f"FOLLOWUPS#{status}" if shard == 0 else f"FOLLOWUPS#{status}#{shard}"


def followup_position(due_at: datetime, followup_id: str) -> str:
    """Sortable as text: UTC, fixed width, then the id (two due at one instant stay apart)."""
    return due_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ") + "#" + followup_id


def followups_of(person_id: str) -> str:
    return f"FOLLOWUPSOF#{person_id}"


def followup_outbox(followup_id: str) -> str:
    """The outbox row of a follow-up's message: one per follow-up, so it is never sent twice."""
    return f"followup-{followup_id}"
