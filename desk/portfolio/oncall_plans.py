"""oncall.csv's rows become one OnCallPlan per property (spine/oncall.py): the people of each level,
level 1 first, and the plan's ack timeout and repeats from the rows that name them. Only the
properties whose rows changed are written; a property left without rows has its plan cleared."""
from __future__ import annotations

from desk.portfolio.files import FileKind
from desk.portfolio.known import Known
from desk.portfolio.record import ImportRecord
from spine.oncall import DEFAULT_ACK_TIMEOUT_S, DEFAULT_REPEATS, OnCallPlan


def oncall_plans(known: Known, touched: list[ImportRecord]) -> tuple[list[OnCallPlan], list[str]]:
    """(plans to write, property ids whose plan is cleared)."""
    final = {**known.records[FileKind.ONCALL], **{r.external_id: r for r in touched}}
    plans, cleared = [], []
    for property_ext in sorted({r.cells["property"] for r in touched}):
        property_id = known.ids[FileKind.PROPERTIES][property_ext]
        rows = sorted((r for r in final.values() if r.cells["property"] == property_ext and not r.ended),
                      key=lambda r: int(r.cells["level"]))
        if not rows:
            cleared.append(property_id)
            continue
        levels: dict[int, list[str]] = {}
        for row in rows:
            person_id = known.ids[FileKind.PEOPLE][row.cells["person"]]
            levels.setdefault(int(row.cells["level"]), []).append(person_id)
        ack = next((int(r.cells["ack_timeout_s"]) for r in rows if r.cells["ack_timeout_s"]), DEFAULT_ACK_TIMEOUT_S)
        repeats = next((int(r.cells["repeats"]) for r in rows if r.cells["repeats"]), DEFAULT_REPEATS)
        plans.append(OnCallPlan(property_id=property_id, levels=[levels[n] for n in sorted(levels)],
                                ack_timeout_s=ack, repeats=repeats, updated_at=known.now))
    return plans, cleared
