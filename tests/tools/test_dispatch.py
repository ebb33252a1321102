"""dispatch(): validation, gate, handler, idempotency, and failures that never escape."""
from __future__ import annotations

import asyncio
import json
from datetime import timedelta

from spine.identity import utcnow
from spine.repo import Spine
from spine.store.base import Item, StoreUnavailable
from spine.toolrun import ToolRun
from spine.toolspec import ToolInvocation
from tools.caller import load_caller
from tools.dispatch import dispatch


def call(name: str, tool_use_id: str = "tu_1", **input) -> ToolInvocation:
    return ToolInvocation(name=name, input=input, tool_use_id=tool_use_id)


async def work_orders_in_204(spine: Spine) -> list[str]:
    return sorted(wo.display_id for wo in await spine.work_orders_at("pf_yale") if wo.unit_id == "u_yale_204")


async def test_refusal_is_an_error_result_and_the_handler_never_runs(spine, callers):
    before = await spine.get_work_order("wo_42")
    result = await dispatch(spine, call("update_work_order", work_order_id="WO-42", status="completed"),
                            callers["mike"])
    assert result.is_error and result.decision == "refused" and result.rule == "scope:assigned-wo"
    assert "not a contact of v_carlos" in result.reason and result.to_api()["is_error"] is True
    assert (await spine.get_work_order("wo_42")) == before


async def test_invalid_input_is_refused_with_the_schema_error(spine, callers):
    result = await dispatch(spine, call("submit_rating", work_order_id="WO-7", stars=9), callers["marcus"])
    assert result.is_error and result.rule == "invalid-input" and "stars" in result.reason
    result = await dispatch(spine, call("create_work_order", summary="leak"), callers["marcus"])
    assert result.is_error and "description" in result.content


async def test_unknown_tool_is_an_error_result(spine, callers):
    result = await dispatch(spine, call("drop_tables"), callers["priya"])
    assert result.is_error and result.rule == "unknown-tool"


async def test_allowed_call_returns_json_and_latency(spine, callers):
    result = await dispatch(spine, call("get_balance"), callers["ellen"])
    assert not result.is_error and result.decision == "allowed"
    assert json.loads(result.content)["balance_usd"] == 125.5
    assert result.latency_ms > 0


async def test_same_tool_use_id_creates_one_work_order(spine, callers):
    first = await dispatch(spine, call("create_work_order", "tu_9", description="dripping faucet"), callers["marcus"])
    again = await dispatch(spine, call("create_work_order", "tu_9", description="dripping faucet"), callers["marcus"])
    assert again.content == first.content and again.rule == "idempotent-replay"
    assert await work_orders_in_204(spine) == sorted(["WO-7", json.loads(first.content)["work_order_id"]])
    other = await dispatch(spine, call("create_work_order", "tu_10", description="broken window"), callers["marcus"])
    assert json.loads(other.content)["work_order_id"] != json.loads(first.content)["work_order_id"]


async def test_the_same_problem_reported_again_adds_to_the_open_work_order(spine, callers):
    first = await dispatch(spine, call("create_work_order", "tu_11", description="the kitchen faucet is dripping",
                                       brief="dripping faucet"), callers["marcus"])
    again = await dispatch(spine, call("create_work_order", "tu_12", description="faucet still drips, worse now",
                                       brief="leaking faucet", priority="urgent"), callers["marcus"])
    created, added = json.loads(first.content), json.loads(again.content)
    assert added["work_order_id"] == created["work_order_id"] and added["added_to_existing"] is True
    assert added["priority"] == "urgent"  # the worse report raises the open one
    assert await work_orders_in_204(spine) == sorted(["WO-7", created["work_order_id"]])
    wo = await spine.get_work_order(f"wo_{created['work_order_id'].split('-')[1]}")
    assert "faucet still drips" in wo.notes[-1].text


async def test_concurrent_duplicates_write_once(spine, callers):
    inv = call("create_work_order", "tu_race", description="no heat")
    results = await asyncio.gather(*(dispatch(spine, inv, callers["jordan"]) for _ in range(5)))
    assert len({r.content for r in results}) == 1 and not any(r.is_error for r in results)
    assert len(await work_orders_in_204(spine)) == 2


async def test_replay_survives_a_new_caller_object_but_not_a_reused_id(spine, callers):
    first = await dispatch(spine, call("add_eta_note", "tu_eta", work_order_id="WO-7", eta="3pm"), callers["mike"])
    mike_again = await load_caller(spine, "p_mike", "pf_yale", "int-mike")  # a restart: same interaction
    replay = await dispatch(spine, call("add_eta_note", "tu_eta", work_order_id="WO-7", eta="3pm"), mike_again)
    assert replay.content == first.content
    assert [n.text for n in (await spine.get_work_order("wo_7")).notes].count("ETA 3pm") == 1
    reused = await dispatch(spine, call("accept_dispatch", "tu_eta", work_order_id="WO-7"), mike_again)
    assert reused.is_error and reused.rule == "idempotency-conflict"


async def test_stale_claim_from_a_dead_run_is_taken_over(spine, callers):
    caller = callers["marcus"]
    stale = ToolRun(interaction_id=caller.interaction_id, tool_use_id="tu_dead", name="create_work_order",
                    person_id="p_marcus", started_at=utcnow() - timedelta(minutes=10))
    assert await spine.claim_tool_run(stale) is None
    result = await dispatch(spine, call("create_work_order", "tu_dead", description="stuck"), caller)
    assert not result.is_error and (await spine.get_tool_run(caller.interaction_id, "tu_dead")).state == "done"


async def test_handler_failure_is_an_error_and_releases_the_key(spine, callers):
    # WO-7 is in progress: a rating is refused by the handler, and nothing is kept under the key.
    result = await dispatch(spine, call("submit_rating", "tu_r", work_order_id="WO-7", stars=5), callers["marcus"])
    assert result.is_error and result.rule == "handler-failure" and "in_progress" in result.content
    assert await spine.get_tool_run(callers["marcus"].interaction_id, "tu_r") is None


async def test_corrupt_record_never_escapes(spine, callers):
    await spine.store.put(Item(pk="WO#wo_7", data={"id": "wo_7", "status": "???"}))
    result = await dispatch(spine, call("get_work_order_detail", work_order_id="WO-7"), callers["marcus"])
    assert result.is_error and "failed unexpectedly" in result.content


class DownStore:
    """A backend that is down: every call raises StoreUnavailable, as a real one does on timeout."""

    def __getattr__(self, name):
        async def unavailable(*args, **kwargs):
            raise StoreUnavailable("store get did not answer within 5.0s")
        return unavailable


async def test_unavailable_store_becomes_an_error_result(callers):
    result = await dispatch(Spine(DownStore()), call("get_pool_status"), callers["marcus"].model_copy())
    assert result.is_error and result.rule == "store-unavailable"
    assert "temporarily unavailable" in result.content
