"""The board as pages: `/admin/work-orders` (filters, newest first) and `/admin/work-orders/{display_id}`
(notes and changes with who made each; staff change status, priority, vendor and add a note).
Server-rendered like the other console pages; the one script posts the form's fields as JSON."""
from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request, Response

import gateway.admin.html as html
from gateway.admin.auth import AdminPageRoute, require_admin_page
from gateway.admin.console_scope import console_scope
from gateway.admin.console_ui import LIVE_SCRIPT
from gateway.admin.work_orders import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    Priority,
    WorkOrderDetail,
    WorkOrderRow,
    board,
    detail,
    row,
    work_order_in_scope,
)
from gateway.context import GatewayContext
from spine.work import WorkOrderStatus

pages = APIRouter(route_class=AdminPageRoute)
PRIORITIES = ("normal", "urgent", "emergency")

EDIT_SCRIPT = html.tag("script", html.Safe("""
document.addEventListener('click', async (ev) => {
  const button = ev.target.closest('button[data-edit]');
  if (!button) return;
  ev.preventDefault();
  const body = {};
  for (const box of button.form.querySelectorAll('[name]')) { if (box.value) body[box.name] = box.value; }
  const answer = await fetch(button.dataset.edit, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                   body: JSON.stringify(body), credentials: 'same-origin'});
  if (answer.ok) { location.reload(); return; }
  const detail = await answer.json().catch(() => ({}));
  button.form.querySelector('.result').textContent = answer.status + ': ' + JSON.stringify(detail.detail || answer.statusText);
});
"""))


def _options(label: str, values: tuple[str, ...] | list[str], chosen: str | None) -> list[html.Safe]:
    return [html.tag("option", label, value="")] + [html.tag("option", v, value=v, selected=v == chosen) for v in values]


def _board_row(r: WorkOrderRow) -> list[object]:
    pms = f"{r.pms.system} {r.pms.id}" + (f" · synced {r.pms.synced_at:%Y-%m-%d %H:%M}" if r.pms.synced_at else
                                           " · not synced") if r.pms else "—"
    return [html.link(f"/admin/work-orders/{html.path_part(r.display_id)}", r.display_id),
            html.pill(r.status, "good" if r.status in ("completed", "closed") else ""),
            html.pill(r.priority, "bad" if r.priority != "normal" else ""), r.property_id, r.unit or "—", r.brief,
            r.vendor_id or "—", pms, r.created_at, r.updated_at]


@pages.get("/work-orders", include_in_schema=False)
async def board_page(request: Request, property_id: str | None = None, status: WorkOrderStatus | None = None,
                     priority: Priority | None = None, limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                     ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    found = await board(ctx.spine, scope, property_id, status, priority, limit)
    rows = [_board_row(await row(ctx.spine, wo)) for wo in found]
    form = html.tag("form",
                    html.tag("label", "property", html.tag("select", *_options("any property", sorted(scope.reads),
                                                                               property_id), name="property_id")),
                    html.tag("label", "status", html.tag("select", *_options("any status", [s.value for s in
                                                                                           WorkOrderStatus], status),
                                                         name="status")),
                    html.tag("label", "priority", html.tag("select", *_options("any priority", PRIORITIES, priority),
                                                           name="priority")),
                    html.tag("button", "Filter", type="submit"), method="get", class_="inline")
    table = html.table(["work order", "status", "priority", "property", "unit", "brief", "vendor", "PMS", "created",
                        "updated"], rows, empty="no work orders")
    return html.page("Work orders", form, html.tag("div", table, id="board", data_live="work_order"),
                     html.tag("p", html.link("/admin/api/work_orders", "as JSON"), class_="muted"), LIVE_SCRIPT)


def _edit_form(d: WorkOrderDetail) -> html.Safe:
    return html.tag("form",
                    html.tag("label", "status", html.tag("select", *_options("(unchanged)", [s.value for s in
                                                                                            WorkOrderStatus], None),
                                                         name="status")),
                    html.tag("label", "priority", html.tag("select", *_options("(unchanged)", PRIORITIES, None),
                                                           name="priority")),
                    html.tag("label", "vendor", html.tag("input", name="vendor_id", placeholder=d.vendor_id or "v_...")),
                    html.tag("label", "note", html.tag("input", name="note", maxlength="2000")),
                    html.tag("button", "Save", type="button", data_edit=f"/admin/api/work_orders/{d.display_id}"),
                    html.tag("span", class_="result muted"), class_="inline")


@pages.get("/work-orders/{display_id}", include_in_schema=False)
async def work_order_page(request: Request, display_id: str,
                          ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    wo = await work_order_in_scope(ctx.spine, scope, display_id)
    d = await detail(ctx.spine, wo)
    facts = html.kv_table([("status", html.pill(d.status)), ("priority", d.priority), ("property", d.property_id),
                           ("unit", d.unit or "—"), ("vendor", d.vendor_id or "—"), ("ETA", d.eta or "—"),
                           ("reporter", d.reporter_person_id or "—"), ("description", d.description or "—"),
                           ("PMS", f"{d.pms.system} {d.pms.id}" if d.pms else "—")])
    notes = html.table(["at", "by", "note"], [[n.at, n.by.name or n.by.id if n.by else "—", n.text] for n in d.notes],
                       empty="no notes")
    changes = html.table(["at", "by", "field", "from", "to"],
                         [[c.at, c.by.name or c.by.id if c.by else "—", c.field, c.before or "—", c.after or "—"]
                          for c in d.changes], empty="no changes")
    acts = _edit_form(d) if wo.property_id in scope.acts else html.tag("p", "read only", class_="muted")
    live = html.tag("div", facts, html.card("Notes", notes), html.card("Changes", changes), id="live-work-order",
                    data_live="work_order", data_live_id=d.display_id)
    return html.page(f"{d.display_id}: {d.brief}", acts, live, EDIT_SCRIPT, LIVE_SCRIPT)
