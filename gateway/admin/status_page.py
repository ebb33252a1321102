"""Status cards (ADR "Status observability"; Finding 6.3): context-build gaps, graceful-degrade
signals and the prompt-cache hit rate per role set. Counting lives in desk.console.status_cards; this
module reads the records and renders them."""
from __future__ import annotations

from collections.abc import Sized
from datetime import datetime

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel

import gateway.admin.html as html
from desk.console.admin_scope import AdminScope
from desk.console.status_cards import (
    CACHE_HIT_ALARM,
    CONTEXT_GAPS_PER_DAY_ALARM,
    OTHER_REPEATS_ALARM,
    WINDOW,
    ContextBuildCard,
    GracefulDegradeCard,
    RoleCacheRate,
    cache_hit_rates,
    context_build_card,
    graceful_degrade_card,
)
from desk.pms.status import current_state
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page, signed_in_scope
from gateway.context import GatewayContext
from spine.identity import utcnow
from spine.records import EventKind

router = APIRouter(route_class=AdminPageRoute)

# Bounded reads: the cards count at most this many records of a kind in the window.
EVENT_READ_LIMIT = 5000
TRACE_READ_LIMIT = 2000
NO_CACHE_MODELS = ("offline",)  # the offline policy has no prompt cache; its traces would read 0%


class StatusReport(BaseModel):
    now: datetime
    context_build: ContextBuildCard
    graceful_degrade: GracefulDegradeCard
    cache_hit: list[RoleCacheRate]
    cache_excluded_models: list[str]
    truncated: list[str]  # the record kinds that hit their read limit (counts are lower bounds)
    pms: list[str] = []  # a line per configured PMS connector (desk.pms.status), operator's view


async def status_report(ctx: GatewayContext, scope: AdminScope, now: datetime | None = None) -> StatusReport:
    """The cards over the records in scope (a staff Person's properties; the operator: all)."""
    now = now or utcnow()
    since = now - WINDOW
    gaps = await ctx.spine.events(EventKind.CONTEXT_BUILD, limit=EVENT_READ_LIMIT, since=since)
    degrades = await ctx.spine.events(EventKind.GRACEFUL_DEGRADE, limit=EVENT_READ_LIMIT, since=since)
    traces = await ctx.spine.recent_traces(limit=TRACE_READ_LIMIT)
    reads: list[tuple[str, Sized, int]] = [(EventKind.CONTEXT_BUILD.value, gaps, EVENT_READ_LIMIT),
                                           (EventKind.GRACEFUL_DEGRADE.value, degrades, EVENT_READ_LIMIT),
                                           ("traces", traces, TRACE_READ_LIMIT)]
    truncated = [name for name, found, cap in reads if len(found) >= cap]
    gaps = [e for e in gaps if scope.sees(e.property_id)]
    degrades = [e for e in degrades if scope.sees(e.property_id)]
    traces = [t for t in traces if scope.sees(t.property_id)]
    return StatusReport(now=now, context_build=context_build_card(gaps, now),
                        graceful_degrade=graceful_degrade_card(degrades, now),
                        cache_hit=cache_hit_rates(traces, now, exclude_models=NO_CACHE_MODELS),
                        cache_excluded_models=list(NO_CACHE_MODELS), truncated=truncated,
                        pms=[(await current_state(ctx.spine, "buildium")).line()] if ctx.buildium else [])


@router.get("/api/status")
async def status_json(request: Request, ctx: GatewayContext = Depends(require_admin)) -> StatusReport:
    return await status_report(ctx, await signed_in_scope(ctx, request))


def _trace_link(interaction_id: str | None) -> html.Safe:
    if not interaction_id:
        return html.Safe("")
    return html.link(f"/admin/traces/view/{html.path_part(interaction_id)}", interaction_id)


def _phone(last4: str | None) -> str:
    return f"…{last4}" if last4 else "—"


def _side_by_side(*tables: html.Safe) -> html.Safe:
    return html.tag("div", *(html.tag("div", t, style="flex:1;min-width:220px") for t in tables),
                    style="display:flex;gap:1rem;flex-wrap:wrap")


def context_card_html(card: ContextBuildCard) -> html.Safe:
    days = ", ".join(str(d) for d in card.alarm_days)
    banner = html.alarm(f"ALARM: more than {CONTEXT_GAPS_PER_DAY_ALARM} context-build gaps on {days} (UTC) — "
                        "review the spine stamps feeding the eager context.", card.alarm,
                        f"No day above {CONTEXT_GAPS_PER_DAY_ALARM} gaps.")
    per_day = html.table(["day (UTC)", "count"], [(d.day, html.pill(d.count, "bad") if d.alarm else d.count)
                                              for d in card.by_day])
    recent = html.table(["time", "phone", "property", "reason", "channel", "interaction"],
                        [(g.at, _phone(g.phone_last4), g.property_id, g.reason, g.channel, _trace_link(g.interaction_id))
                      for g in card.recent], empty="no context-build gaps in the last 7 days")
    return html.card("Context-build gaps", banner,
                     html.tag("p", html.tag("b", card.total), " in the last 7 days (agent/context-build)"),
                     _side_by_side(html.counts_table("reason", card.by_reason), per_day),
                     html.tag("h3", f"Most recent {len(card.recent)}"), recent)


def degrade_card_html(card: GracefulDegradeCard) -> html.Safe:
    phones = ", ".join(f"…{p.phone_last4} ({p.count}×)" for p in card.repeat_phones)
    banner = html.alarm(f"ALARM: phone routed to 'other' more than {OTHER_REPEATS_ALARM}× in 7 days: {phones} — "
                        "likely a spine-stamp gap, not a random caller.", card.alarm,
                        f"No phone routed to 'other' more than {OTHER_REPEATS_ALARM}× in 7 days.")
    recent = html.table(["time", "phone", "property", "reason", "channel", "description / category", "first message",
                         "interaction"],
                        [(s.at, _phone(s.phone_last4), s.property_id, s.reason, s.channel,
                       html.join([s.description or "—", " / ", s.spine_category or "—"]),
                       html.tag("q", s.first_message_snippet), _trace_link(s.interaction_id)) for s in card.recent],
                        empty="no graceful-degrade signals in the last 7 days")
    return html.card("Graceful-degrade signals", banner,
                     html.tag("p", html.tag("b", card.total), " in the last 7 days (agent/graceful-degrade, MetaRole 'other')"),
                     _side_by_side(html.counts_table("reason", card.by_reason),
                                html.counts_table("description", card.by_description),
                                html.counts_table("spine category", card.by_spine_category)),
                     html.tag("h3", f"Most recent {len(card.recent)}"), recent)


def cache_card_html(rates: list[RoleCacheRate], excluded: list[str]) -> html.Safe:
    low = [r.roles for r in rates if r.alarm]
    banner = html.alarm(f"ALARM: cache-hit rate below {CACHE_HIT_ALARM:.0%} for {', '.join(low)} — review prompt "
                        "stability for that role set.", bool(low), f"No role set below {CACHE_HIT_ALARM:.0%}.")
    rows = [(r.roles, r.traces, r.input_tokens, r.cache_read_input_tokens,
             "—" if r.hit_rate is None else html.pill(f"{r.hit_rate:.1%}", "bad" if r.alarm else "good"))
            for r in rates]
    table = html.table(["role set", "traces", "input tokens", "read from cache", "hit rate"], rows,
                       empty="no model traces in the last 7 days")
    note = html.tag("p", f"Traces by {', '.join(excluded)} models are not counted (no prompt cache).", class_="muted")
    return html.card("Prompt-cache hit rate per role set", banner, table, note)


@router.get("/status", include_in_schema=False)
async def status_page(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    report = await status_report(ctx, await signed_in_scope(ctx, request))
    warn = [html.tag("div", f"Read limit reached for {', '.join(report.truncated)}: counts are lower bounds.",
                     class_="alarm")] if report.truncated else []
    return html.page("Status", html.tag("p", f"7-day rolling window ending {report.now:%Y-%m-%d %H:%M} UTC · ",
                                        html.link("/admin/api/status", "as JSON"), class_="muted"), *warn,
                     context_card_html(report.context_build), degrade_card_html(report.graceful_degrade),
                     cache_card_html(report.cache_hit, report.cache_excluded_models),
                     *(html.tag("p", line, class_="muted") for line in report.pms))
