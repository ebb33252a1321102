"""GET /admin/status and /admin/api/status over events in the store (the real router's included)."""
from __future__ import annotations

from datetime import timedelta

from spine.context import Channel
from spine.events import context_build
from spine.identity import utcnow
from spine.records import AgentTrace, TraceRouting, Usage
from spine.router import route_inbound
from tests.support.admin_helpers import AUTH
from tests.support.gateway_helpers import OfflinePool


async def put_gap(spine, at, ix: str, reason: str = "personId_missing") -> None:
    event = await context_build(spine, reason, channel="sms", address="+14155559876", property_id="pf_yale",
                                interaction_id=ix, persist=False)
    await spine.put_event(event.model_copy(update={"at": at}))


async def test_empty_store_shows_calm_cards(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = await client.get("/admin/status", headers=AUTH)
    assert page.status_code == 200 and "ALARM" not in page.text
    for title in ("Context-build gaps", "Graceful-degrade signals", "Prompt-cache hit rate per role set"):
        assert title in page.text
    body = (await client.get("/admin/api/status", headers=AUTH)).json()
    assert body["context_build"]["total"] == 0 and body["graceful_degrade"]["total"] == 0
    assert body["truncated"] == []


async def test_context_gaps_counted_in_window_with_daily_alarm(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    today = utcnow().replace(hour=0, minute=0, second=0, microsecond=0)
    for i in range(6):
        await put_gap(spine, today + timedelta(seconds=i), f"ix_today_{i}")
    await put_gap(spine, utcnow() - timedelta(days=8), "ix_stale", reason="ghost_pointer_filtered")
    card = (await client.get("/admin/api/status", headers=AUTH)).json()["context_build"]
    assert card["total"] == 6 and card["by_reason"] == {"personId_missing": 6}
    assert card["alarm"] and card["alarm_days"] == [today.date().isoformat()]
    assert card["recent"][0]["interaction_id"] == "ix_today_5" and card["recent"][0]["phone_last4"] == "9876"
    page = (await client.get("/admin/status", headers=AUTH)).text
    assert "ALARM: more than 5 context-build gaps on " + today.date().isoformat() in page
    assert 'href="/admin/traces/view/ix_today_5"' in page and "…9876" in page
    assert "ix_stale" not in page and "ghost_pointer_filtered" not in page


async def test_repeat_other_phone_alarm_from_the_router(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    for i in range(3):
        decision = await route_inbound(spine, channel=Channel.SMS, wire_address="+13105557777", property_id="pf_yale",
                                       message="yo <b>Trevor</b> it's me", interaction_id=f"ix_wrong_{i}")
        assert decision.l1.roles[0].value == "other"
    await route_inbound(spine, channel=Channel.SMS, wire_address="+12065551099", property_id="pf_yale",
                        message="about my mother's lease", interaction_id="ix_estate")
    card = (await client.get("/admin/api/status", headers=AUTH)).json()["graceful_degrade"]
    assert card["total"] == 4 and card["repeat_phones"] == [{"phone_last4": "7777", "count": 3}]
    assert card["by_description"] == {"random caller": 3, "deceased — estate-of inquiry": 1}
    assert card["by_reason"] == {"no_person_resolved_no_intent_hints": 3, "deceased_person": 1}
    page = (await client.get("/admin/status", headers=AUTH)).text
    assert "ALARM: phone routed to &#x27;other&#x27; more than 2× in 7 days: …7777 (3×)" in page
    assert "&lt;b&gt;Trevor&lt;/b&gt;" in page and "<b>Trevor</b>" not in page  # the snippet is user text
    assert 'href="/admin/traces/view/ix_estate"' in page


async def test_cache_hit_card_alarms_below_half(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    for ix, roles, read, fresh in [("ix_t", ["tenant"], 200, 800), ("ix_p", ["pm"], 900, 100)]:
        await spine.put_trace(AgentTrace(interaction_id=ix, channel="sms", routing=TraceRouting(roles=roles),
                                         model="claude-sonnet-4-6",
                                         usage=Usage(input_tokens=fresh, cache_read_input_tokens=read)))
    await spine.put_trace(AgentTrace(interaction_id="ix_off", channel="sms", routing=TraceRouting(roles=["vendor"]),
                                     model="offline-rules", usage=Usage(input_tokens=3000)))
    rates = (await client.get("/admin/api/status", headers=AUTH)).json()["cache_hit"]
    assert [(r["roles"], r["hit_rate"], r["alarm"]) for r in rates] == [("pm", 0.9, False), ("tenant", 0.2, True)]
    page = (await client.get("/admin/status", headers=AUTH)).text
    assert "ALARM: cache-hit rate below 50% for tenant" in page and "20.0%" in page and "90.0%" in page
