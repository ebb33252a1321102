"""prefetch_candidates(): read-only guesses from the message and eager context, within the catalog."""
from __future__ import annotations

from datetime import date

from actors.model.offline.entities import extract
from spine.context import ActivePointers, ActiveWorkOrder, PersonContext
from tools.catalog import catalog_for
from tools.matrix import TOOL_ROLE_MATRIX
from tools.prefetch import prefetch_candidates


def pairs(invocations) -> list[tuple[str, dict]]:
    return [(i.name, i.input) for i in invocations]


def context_with(*display_ids: str) -> PersonContext:
    wos = [ActiveWorkOrder(id=d.lower().replace("-", "_"), display_id=d, status="in_progress", brief="x")
           for d in display_ids]
    return PersonContext(person_id="p", active=ActivePointers(active_work_orders=wos))


def test_tenant_naming_a_work_order_gets_its_detail(callers):
    got = pairs(prefetch_candidates("any news on wo-7?", None, callers["marcus"]))
    assert got == [("get_work_order_detail", {"work_order_id": "WO-7"})]


def test_vendor_naming_a_work_order_gets_dispatch_details(callers):
    got = pairs(prefetch_candidates("running late for WO 42", None, callers["mike"]))
    assert got == [("get_dispatch_details", {"work_order_id": "WO-42"})]


def test_multi_role_caller_gets_both_and_the_gate_sorts_it_out(callers):
    got = pairs(prefetch_candidates("about work order #42", None, callers["carlos"]))
    assert got == [("get_work_order_detail", {"work_order_id": "WO-42"}),
                   ("get_dispatch_details", {"work_order_id": "WO-42"})]


def test_open_work_orders_in_context_and_a_complaint(callers):
    got = pairs(prefetch_candidates("the toilet thing is back", context_with("WO-7"), callers["jordan"]))
    assert got == [("get_work_order_detail", {"work_order_id": "WO-7"}), ("get_unit_appliances", {})]


def test_availability_intent_for_a_prospect(callers):
    got = pairs(prefetch_candidates("do you have 2BR units next month?", None, callers["prospect"]))
    assert got == [("get_available_units", {"bedrooms": 2})]
    assert pairs(prefetch_candidates("any openings?", None, callers["prospect"])) == [("get_available_units", {})]


def test_the_prefetch_guesses_the_call_the_offline_model_makes_from_the_same_words(callers):
    """One reader (spine.intent.mentions): a studio is 0 bedrooms and a long work-order number is read whole
    by both, so the prefetched result is the one the model asks for."""
    today = date(2026, 12, 2)
    studio = "any studios available next month?"
    assert pairs(prefetch_candidates(studio, None, callers["prospect"])) == [("get_available_units", {"bedrooms": 0})]
    assert extract(studio, today).bedrooms == 0
    named = "any news on WO-1234567?"
    assert pairs(prefetch_candidates(named, None, callers["marcus"])) == [
        ("get_work_order_detail", {"work_order_id": "WO-1234567"})]
    assert extract(named, today).work_orders == ["WO-1234567"]


def test_never_outside_the_catalog_and_only_read_only(callers):
    message = "2BR available? also WO-7 and WO-42, my sink is leaking"
    context = context_with("WO-7", "WO-51")
    for name, caller in callers.items():
        offered = {s.name for s in catalog_for(caller)}
        for inv in prefetch_candidates(message, context, caller):
            assert inv.name in offered, (name, inv.name)
            assert TOOL_ROLE_MATRIX[inv.name].read_only
    assert prefetch_candidates(message, context, callers["other"]) == []
    assert prefetch_candidates(message, context, callers["priya"]) == []


def test_nothing_to_guess(callers):
    assert prefetch_candidates("thanks!", None, callers["marcus"]) == []
