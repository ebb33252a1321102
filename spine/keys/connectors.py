"""What the connectors keep: portfolio imports (desk/portfolio) and property-management
systems of record (desk/pms: sync state, links, the webhook inbox, write-backs)."""
from __future__ import annotations

# -- portfolio imports (desk/portfolio) ----------------------------------------------------
IMPORT_BUCKETS = 4  # partitions per (source, file kind): each a query of its own, none too large


def import_rows(source: str, kind: str, bucket: int) -> str:
    """One source's rows of one file kind (`people`, `residents`, ...) in one of IMPORT_BUCKETS
    partitions (desk.portfolio.record picks it from the external id), sort key `import_row`: an
    import reads a file kind's rows with one query per bucket, and no partition holds them all."""
    return f"IMPORT#{source}#{kind}#{bucket:02d}"


def import_row(external_id: str) -> str:
    """The sort key of one imported row: the source system's external id."""
    return f"ROW#{external_id}"


# -- property-management systems of record (desk/pms) -------------------------------------
def pms_state(system: str) -> str:
    """A PMS connector's sync state (last full and incremental sync, counts, errors, webhooks)."""
    return f"PMSSTATE#{system}"


def pms_links(system: str) -> str:
    """The gateway's side of a PMS's properties (phone, email, zone), sort key `pms_link`."""
    return f"PMSLINKS#{system}"


def pms_link(record_id: str) -> str:
    return f"LINK#{record_id}"


def pms_webhook_marker(system: str, event_id: str) -> str:
    """A PMS webhook delivery handled once (a `once` marker)."""
    return f"pms-webhook#{system}#{event_id}"


def pms_inbox(system: str) -> str:
    """A PMS's webhook deliveries accepted and not yet worked (sort key: the event id)."""
    return f"PMSINBOX#{system}"


def pms_writes(system: str) -> str:
    """A PMS's write-backs, one per gateway work order (sort key `pms_write`, or `pms_write_task`)."""
    return f"PMSWRITES#{system}"


def pms_write(work_order_id: str) -> str:
    return f"WO#{work_order_id}"


def pms_write_task(task_id: str) -> str:
    """The work order a PMS's task was written for (a status change made in the PMS finds it)."""
    return f"TASK#{task_id}"
