"""The offline policy's vendor rules: an ETA, an acceptance, a hand-off, a finished job or a progress
note on a work order, and the details of one; the work order is the one named, the one Clara just
asked about, or the vendor's only one."""
from __future__ import annotations

from actors.model.offline.entities import Entities, extract
from actors.model.offline.plans import Intent, Plan, earlier_work_order
from actors.model.offline.reading import Reading
from actors.model.offline.vocabulary import ACCEPT_TALK, DONE_TALK, ETA_TALK, HANDOFF_TALK, MINE, PROGRESS_TALK, STATUS
from spine.routing_types import MetaRole


def _vendor_wo(r: Reading, e: Entities) -> str | None:
    if e.work_orders:
        return e.work_orders[0]
    if earlier := earlier_work_order(r):
        return earlier
    mine = [w for w in r.work_orders if w.as_vendor]
    return mine[0].display_id if len(mine) == 1 else None


VENDOR_TALK = (ETA_TALK, HANDOFF_TALK, DONE_TALK, PROGRESS_TALK, ACCEPT_TALK)


def _answering_which_work_order(r: Reading, e: Entities) -> Entities:
    """'WO-7' after Clara asked which work order an ETA (hand-off, ...) was for: the earlier words
    with this number, as if said together."""
    previous = r.earlier_asks()[-1:]
    if not (e.work_orders and previous) or any(p.search(e.text) for p in VENDOR_TALK):
        return e
    before = extract(previous[0], r.today)
    if before.work_orders or not any(p.search(before.text) for p in VENDOR_TALK):
        return e
    merged = extract(f"{previous[0]} ({e.work_orders[0]})", r.today)
    return merged


def vendor_rule(r: Reading, e: Entities) -> Plan | None:
    merged = _answering_which_work_order(r, e)
    found = _vendor_plan(r, merged)
    if found is not None and merged is not e:
        found.entities = merged
    return found


def _vendor_plan(r: Reading, e: Entities) -> Plan | None:
    if MetaRole.VENDOR not in r.facts.roles or not r.offers("add_eta_note", "update_work_order", "get_dispatch_details"):
        return None
    wo = _vendor_wo(r, e)
    if ACCEPT_TALK.search(e.text) and e.work_orders and r.offers("accept_dispatch"):
        accept = {"work_order_id": wo, **({"eta": e.eta[0]} if e.eta else {})}
        return Plan(Intent.VENDOR_ACCEPT, [("accept_dispatch", accept)], wo)
    eta_tool = r.offers("add_eta_note", "update_work_order")
    if ETA_TALK.search(e.text) and eta_tool and (e.eta or not MINE.search(e.text)):
        e.eta = e.eta or ("on the way", "soon")  # "omw to WO-7" names no time
        return Plan(Intent.VENDOR_ETA, [(eta_tool, {"work_order_id": wo, "eta": e.eta[0],
                                               "note": f"Vendor ETA {e.eta[1]}: {e.text[:200]}"})] if wo else [], wo)
    if HANDOFF_TALK.search(e.text) and r.offers("handoff_to_other_vendor"):
        return Plan(Intent.VENDOR_HANDOFF, [("handoff_to_other_vendor", {"work_order_id": wo, "reason": e.text[:300]})]
                    if wo else [], wo)
    closes_job = e.work_orders or (wo and not MINE.search(e.text))
    if DONE_TALK.search(e.text) and r.offers("update_work_order") and closes_job:
        return Plan(Intent.VENDOR_DONE, [("update_work_order", {"work_order_id": wo, "status": "completed",
                                                           "note": e.text[:300]})], wo)
    vendor_job = wo is not None and (e.work_orders or any(w.display_id == wo and w.as_vendor for w in r.work_orders)
                                     or earlier_work_order(r) == wo)
    if PROGRESS_TALK.search(e.text) and vendor_job and r.offers("update_work_order") and not e.problem:
        return Plan(Intent.VENDOR_NOTE, [("update_work_order", {"work_order_id": wo, "note": e.text[:300]})], wo)
    pointer = r.work_order(wo) if wo else None
    mine_or_asked = pointer is None or pointer.as_vendor or STATUS.search(e.text)
    if e.work_orders and r.offers("get_dispatch_details") and mine_or_asked:
        return Plan(Intent.WO_DETAILS, [("get_dispatch_details", {"work_order_id": wo})], wo)
    return None
