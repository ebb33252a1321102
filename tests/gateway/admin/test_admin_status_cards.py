"""desk.console.status_cards: the ADR's two status cards and the cache-hit rate, at controlled times."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from desk.console.status_cards import cache_hit_rates, context_build_card, graceful_degrade_card
from spine.events import context_build, graceful_degrade, snippet
from spine.records import AgentTrace, Event, TraceRouting, Usage

NOW = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
DAY, SEC = timedelta(days=1), timedelta(seconds=1)


async def gap(at: datetime, reason: str = "persisted_context_missing", phone: str = "+12065551001",
              ix: str | None = None) -> Event:
    event = await context_build(None, reason, channel="sms", address=phone, property_id="pf_yale",
                                interaction_id=ix, persist=False)
    return event.model_copy(update={"at": at})


async def other(at: datetime, phone: str, message: str = "yo what's up Trevor", *,
                reason: str = "no_person_resolved_no_intent_hints", description: str = "random caller",
                category: str = "wrong_number") -> Event:
    event = await graceful_degrade(None, reason, channel="sms", address=phone, property_id="pf_yale",
                                   interaction_id=None, persist=False,
                                   detail={"first_message_snippet": snippet(message),
                                           "other_classification": {"description": description,
                                                                    "spine_category": category}})
    return event.model_copy(update={"at": at})


async def test_context_card_window_edges():
    events = [await gap(NOW - 7 * DAY - SEC), await gap(NOW - 7 * DAY), await gap(NOW - 7 * DAY + SEC),
              await gap(NOW - SEC), await gap(NOW + 60 * SEC)]
    card = context_build_card(events, NOW)
    assert card.total == 4  # only the one a second older than seven days is out
    assert card.recent[0].at == NOW + 60 * SEC and card.recent[-1].at == NOW - 7 * DAY
    assert card.window_start == NOW - 7 * DAY


async def test_context_card_breakdowns_and_zero_days():
    events = [await gap(NOW - 2 * DAY, "personId_missing"), await gap(NOW - 2 * DAY - SEC, "personId_missing"),
              await gap(NOW - SEC, "ghost_pointer_filtered")]
    card = context_build_card(events, NOW)
    assert card.by_reason == {"personId_missing": 2, "ghost_pointer_filtered": 1}
    by_day = {d.day.isoformat(): d.count for d in card.by_day}
    assert len(by_day) == 8 and sum(by_day.values()) == 3  # 3 Mar (partial) .. 10 Mar
    assert by_day["2026-03-08"] == 2 and by_day["2026-03-10"] == 1 and by_day["2026-03-05"] == 0
    assert not card.alarm


async def test_context_alarm_fires_above_five_in_one_day():
    noon = NOW.replace(hour=12)
    five = [await gap(noon - i * SEC) for i in range(5)]
    assert not context_build_card(five, NOW).alarm
    yesterday_six = [await gap(noon - DAY - i * SEC) for i in range(6)]
    card = context_build_card(five + yesterday_six, NOW)
    assert card.alarm and [d.isoformat() for d in card.alarm_days] == ["2026-03-09"]
    # Six on two different days is no alarm: the threshold is per day, not per window.
    spread = [await gap(noon - i * SEC) for i in range(3)] + [await gap(noon - DAY - i * SEC) for i in range(3)]
    assert not context_build_card(spread, NOW).alarm
    stale_six = [await gap(NOW - 8 * DAY - i * SEC) for i in range(6)]
    assert not context_build_card(stale_six, NOW).alarm


async def test_recent_lists_hold_the_newest_twenty():
    events = [await gap(NOW - i * 60 * SEC, ix=f"ix_{i}") for i in range(25)]
    card = context_build_card(list(reversed(events)), NOW)
    assert card.total == 25 and [g.interaction_id for g in card.recent] == [f"ix_{i}" for i in range(20)]
    assert card.recent[0].phone_last4 == "1001" and card.recent[0].property_id == "pf_yale"


async def test_cards_ignore_each_others_events():
    mixed = [await gap(NOW - SEC), await other(NOW - SEC, "+13105557777")]
    assert context_build_card(mixed, NOW).total == 1 and graceful_degrade_card(mixed, NOW).total == 1


async def test_degrade_card_breakdowns_and_snippet():
    events = [await other(NOW - SEC, "+13105557777", "call me at 206 555 1234"),
              await other(NOW - 2 * SEC, "+18885550199", "WIN", reason="person_category_spam", description="spam",
                          category="spam"),
              await other(NOW - 3 * SEC, "+12065551099", "about my mother", reason="deceased_person",
                          description="deceased — estate-of inquiry", category="unclassified")]
    card = graceful_degrade_card(events, NOW)
    assert card.total == 3
    assert card.by_description == {"deceased — estate-of inquiry": 1, "random caller": 1, "spam": 1}
    assert card.by_spine_category == {"spam": 1, "unclassified": 1, "wrong_number": 1}
    assert card.by_reason["person_category_spam"] == 1
    assert card.recent[0].first_message_snippet == "call me at …1234"  # masked at emit time
    assert [s.phone_last4 for s in card.recent] == ["7777", "0199", "1099"]


async def test_repeat_phone_alarm_more_than_twice_in_seven_days():
    twice = [await other(NOW - i * DAY, "+13105557777") for i in range(2)]
    assert not graceful_degrade_card(twice, NOW).alarm
    # A third sighting older than the window does not count ...
    old_third = twice + [await other(NOW - 7 * DAY - SEC, "+13105557777")]
    assert not graceful_degrade_card(old_third, NOW).alarm
    # ... one inside it does, and only that phone is listed.
    thrice = twice + [await other(NOW - 7 * DAY + SEC, "+13105557777"), await other(NOW, "+14155550000")]
    card = graceful_degrade_card(thrice, NOW)
    assert card.alarm and [(p.phone_last4, p.count) for p in card.repeat_phones] == [("7777", 3)]


def _trace(ix: str, roles: list[str], *, read: int, fresh: int, write: int = 0, model: str = "claude-sonnet-4-6",
           at: datetime = NOW - DAY) -> AgentTrace:
    return AgentTrace(interaction_id=ix, channel="sms", routing=TraceRouting(roles=roles), model=model,
                      usage=Usage(input_tokens=fresh, cache_read_input_tokens=read, cache_creation_input_tokens=write),
                      started_at=at)


def test_cache_hit_rate_per_role_set():
    traces = [_trace("a", ["tenant"], read=900, fresh=100), _trace("b", ["tenant"], read=0, fresh=100, write=900),
              _trace("c", ["vendor", "tenant"], read=300, fresh=700),
              _trace("d", ["pm"], read=0, fresh=1000, at=NOW - 8 * DAY),  # outside the window
              _trace("e", ["pm"], read=0, fresh=500, model="offline-rules"),  # no prompt cache
              _trace("f", ["other"], read=0, fresh=0)]
    rates = {r.roles: r for r in cache_hit_rates(traces, NOW, exclude_models=("offline",))}
    assert set(rates) == {"tenant", "tenant+vendor", "other"}
    assert rates["tenant"].hit_rate == 0.45 and rates["tenant"].traces == 2 and rates["tenant"].alarm
    assert rates["tenant+vendor"].hit_rate == 0.3 and rates["tenant+vendor"].alarm
    assert rates["other"].hit_rate is None and not rates["other"].alarm
    healthy = cache_hit_rates([_trace("g", ["pm"], read=500, fresh=500)], NOW)
    assert healthy[0].hit_rate == 0.5 and not healthy[0].alarm  # the alarm is strictly below 50%
