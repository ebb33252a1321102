"""Agent-trace pages: a filtered list and one interaction in full (routing, prompt anatomy with
the cache breakpoint, tools offered, tool calls and their gate decisions, prefetch, usage, cost,
latency, events, reply), bounded by the signed-in scope as the JSON routes /admin/traces[/{id}] are."""
from __future__ import annotations

import json

from fastapi import APIRouter, Depends, Request, Response

import gateway.admin.html as html
from gateway.admin.auth import AdminPageRoute, require_admin_page, signed_in_scope
from gateway.admin.trace_query import find_trace, find_traces
from gateway.context import GatewayContext
from spine.context import Channel
from spine.records import AgentTrace

router = APIRouter(route_class=AdminPageRoute)

DEFAULT_LIMIT, MAX_LIMIT = 50, 500
SNIPPET = 90


def _short(text: str, limit: int = SNIPPET) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def trace_href(interaction_id: str) -> str:
    return f"/admin/traces/view/{html.path_part(interaction_id)}"


def _origin(t: AgentTrace) -> html.Safe:
    if t.origin != "admin":
        return html.esc(t.origin)
    return html.join([html.pill("admin", "bad"), f" impersonated by {t.impersonated_by}" if t.impersonated_by else ""])


def _filters(request: Request) -> tuple[str | None, Channel | None, int, list[str]]:
    q, errors = request.query_params, []
    participant = q.get("participant_id") or None
    channel = None
    if q.get("channel"):
        try:
            channel = Channel(q["channel"])
        except ValueError:
            errors.append(f"unknown channel {q['channel']!r}; known: {', '.join(c.value for c in Channel)}")
    try:
        limit = max(1, min(MAX_LIMIT, int(q.get("limit") or DEFAULT_LIMIT)))
    except ValueError:
        errors.append(f"limit must be a number, got {q['limit']!r}")
        limit = DEFAULT_LIMIT
    return participant, channel, limit, errors


def _filter_form(participant: str | None, channel: Channel | None, limit: int) -> html.Safe:
    options = [html.tag("option", "any", value="")] + [
        html.tag("option", c.value, value=c.value, selected=c == channel) for c in Channel]
    return html.tag("form",
                    html.tag("label", "participant_id", html.tag("input", name="participant_id", value=participant or "")),
                    html.tag("label", "channel", html.tag("select", *options, name="channel")),
                    html.tag("label", "limit", html.tag("input", name="limit", type="number", min=1, max=MAX_LIMIT, value=limit)),
                    html.tag("button", "Filter", type="submit"), method="get", action="/admin/traces/view", class_="inline")


@router.get("/traces/view", include_in_schema=False)
async def traces_page(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    participant, channel, limit, errors = _filters(request)
    if errors:
        return html.page("Agent traces", *(html.tag("div", e, class_="alarm") for e in errors),
                         _filter_form(participant, None, limit), status_code=400)
    traces = await find_traces(ctx.spine, await signed_in_scope(ctx, request), participant_id=participant,
                               channel=channel, limit=limit)
    rows = [(t.started_at, html.link(trace_href(t.interaction_id), t.interaction_id), t.channel, _origin(t),
             html.link("/admin/traces/view?" + html.query(participant_id=t.participant_id), t.participant_id)
             if t.participant_id else "—",
             t.property_id, html.join(html.pill(r) for r in t.routing.roles), _short(t.inbound), _short(t.reply),
             len(t.tool_calls), f"${t.cost_usd:.4f}", f"{t.latency_ms.total:.0f} ms") for t in traces]
    return html.page("Agent traces", _filter_form(participant, channel, limit),
                     html.tag("p", f"{len(traces)} trace(s), newest first · ",
                           html.link("/admin/traces?" + html.query(participant_id=participant, channel=channel, limit=limit),
                                  "as JSON"), class_="muted"),
                     html.table(["started", "interaction", "channel", "origin", "participant", "property", "roles",
                              "inbound", "reply", "tool calls", "cost", "latency"], rows, empty="no traces"))


def _json(value: object) -> html.Safe:
    return html.tag("pre", json.dumps(value, sort_keys=True, ensure_ascii=False, default=str))


def _summary(t: AgentTrace) -> html.Safe:
    u = t.usage
    return html.kv_table([
        ("interaction", t.interaction_id), ("started", t.started_at), ("channel", t.channel),
        ("origin", _origin(t)), ("participant", t.participant_id or "— (unresolved)"),
        ("property", t.property_id), ("phone", f"…{t.wire_address_last4}" if t.wire_address_last4 else "—"),
        ("model", t.model or "—"), ("cost", f"${t.cost_usd:.6f}"),
        ("latency", f"total {t.latency_ms.total:.0f} ms · model {t.latency_ms.model:.0f} ms · "
                    f"tools {t.latency_ms.tools:.0f} ms"),
        ("usage", f"input {u.input_tokens} · output {u.output_tokens} · cache read {u.cache_read_input_tokens} · "
                  f"cache write {u.cache_creation_input_tokens}"),
    ])


def _routing(t: AgentTrace) -> html.Safe:
    r = t.routing
    oc = r.other_classification
    return html.kv_table([
        ("roles", html.join(html.pill(x) for x in r.roles) or "—"), ("confidence", r.confidence),
        ("other classification", f"{oc.description} / {oc.spine_category or '—'}" if oc else "—"),
        ("inferred intent", r.inferred_intent.kind if r.inferred_intent else "—"),
    ])


def prompt_anatomy(t: AgentTrace) -> html.Safe:
    """Sections in prompt order with a breakpoint row after the last cached section."""
    sections, cut = t.prompt.sections, t.prompt.breakpoint_index
    rows: list[tuple[object, ...]] = []
    for i, s in enumerate(sections):
        rows.append((i, s.layer, s.name, s.token_estimate))
        if i == cut:
            rows.append(("", html.tag("b", "CACHE BREAKPOINT"), html.tag("span", "everything above is the cached prefix",
                                                                    class_="muted"), ""))
    marked = cut + 1 if cut is not None and cut < len(sections) else None
    stable = sum(s.token_estimate for s in sections[: cut + 1]) if cut is not None else 0
    total = sum(s.token_estimate for s in sections)
    note = html.tag("p", f"≈{stable} of ≈{total} estimated tokens above the breakpoint", class_="muted")
    return html.join([html.table(["#", "layer", "section", "≈ tokens"], rows, marked_row=marked,
                                 empty="no prompt (the turn ended before assembly)"), note if sections else ""])


def _calls(t: AgentTrace) -> html.Safe:
    return html.table(["tool_use_id", "tool", "input", "decision", "reason", "prefetched", "latency", "error"],
                      [(c.tool_use_id, html.tag("b", c.name), _json(c.input),
                     html.pill(c.decision, "good" if c.decision == "allowed" else "bad"), c.reason,
                     "yes" if c.prefetched else "no", f"{c.latency_ms:.1f} ms", "yes" if c.is_error else "")
                    for c in t.tool_calls], empty="no tool calls")


@router.get("/traces/view/{interaction_id}", include_in_schema=False)
async def trace_page(interaction_id: str, request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    t = await find_trace(ctx.spine, await signed_in_scope(ctx, request), interaction_id)
    if t is None:
        return html.page("Trace not found", html.tag("p", f"No trace for interaction {interaction_id!r}."),
                         html.link("/admin/traces/view", "all traces"), status_code=404)
    transcript = [html.card("Transcript", html.table(["role", "text"], [(x.role, x.text)
                                                                 for x in t.transcript]))] if t.transcript else []
    return html.page(
        f"Trace {t.interaction_id}",
        html.tag("p", html.link(f"/admin/traces/{html.path_part(t.interaction_id)}", "as JSON"), class_="muted"),
        html.card("Summary", _summary(t)),
        html.card("Messages", html.tag("h3", "Inbound"), html.tag("pre", t.inbound or "—"),
                  html.tag("h3", "Reply"), html.tag("pre", t.reply or "— (no reply)")),
        html.card("Routing", _routing(t)),
        html.card("Prompt anatomy", prompt_anatomy(t)),
        html.card("Tools offered", html.join(html.pill(n) for n in t.tools_offered) or html.tag("span", "none", class_="muted")),
        html.card("Tool calls", _calls(t)),
        html.card("Prefetch", html.table(["tool", "input", "status"], [(p.name, _json(p.input), p.status) for p in t.prefetch],
                                         empty="no speculative prefetch")),
        html.card("Events", html.table(["kind", "reason"], [(e.kind, e.reason) for e in t.events], empty="no events")),
        *transcript,
    )
