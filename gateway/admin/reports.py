"""The reports: `GET /admin/api/reports?property_id=&days=30` (JSON, the keys ARCHITECTURE.md lists;
`&format=csv` the same as `key,value` rows) and `/admin/reports`, the same with charts drawn on the
server. Read from the rollups (desk.console.reports), within the signed-in scope: one property
named, else every property the identity reads."""
from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Literal

from fastapi import APIRouter, Depends, Query, Request, Response

import gateway.admin.charts as charts
import gateway.admin.html as html
from desk.console.reports import CHANNELS, Report, daily_counts, flat, report_of, total
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page
from gateway.admin.console_scope import ConsoleScope, console_scope
from gateway.context import GatewayContext

api = APIRouter()
pages = APIRouter(route_class=AdminPageRoute)

DAYS = Query(30, ge=1, le=366)


async def _counts(ctx: GatewayContext, scope: ConsoleScope, property_id: str | None,
                  days: int) -> dict[str, Counter[str]]:
    if property_id:
        scope.check_read(property_id)
    return await daily_counts(ctx.spine, [property_id] if property_id else sorted(scope.reads), days)


@api.get("/reports", response_model=None,
         responses={200: {"description": "the report as JSON, or as CSV with `format=csv`",
                          "content": {"application/json": {"schema": Report.model_json_schema(
                              ref_template="#/components/schemas/{model}")},
                                      "text/csv": {"schema": {"type": "string"}}}}})
async def get_report(request: Request, property_id: str | None = None, days: int = DAYS,
                     format: Literal["json", "csv"] = "json",
                     ctx: GatewayContext = Depends(require_admin)) -> Report | Response:
    scope = await console_scope(ctx, request)
    report = report_of(total(await _counts(ctx, scope, property_id, days)))
    if format == "json":
        return report
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["key", "value"])
    writer.writerows(("" if v is None else v for v in row) for row in flat(report))
    return Response(out.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="report-{property_id or "all"}-{days}d.csv"'})


def _behind(key: str, property_id: str | None) -> str | None:
    """The rows a number counts, where the console lists them."""
    where = html.query(property_id=property_id) if property_id else ""
    links = {"handoffs": "/admin/escalations", "emergencies.count": "/admin/escalations",
             "work_orders.opened": "/admin/work-orders",
             "work_orders.completed": "/admin/work-orders?" + html.query(status="completed", property_id=property_id)}
    if key.startswith("inbound."):
        return "/admin/conversations" + (f"?{where}" if where else "")
    link = links.get(key)
    if link is None or "?" in link:
        return link
    return link + (f"?{where}" if where else "")


@pages.get("/reports", include_in_schema=False)
async def reports_page(request: Request, property_id: str | None = None, days: int = DAYS,
                       ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    by_day = await _counts(ctx, scope, property_id, days)
    report = report_of(total(by_day))
    dates = list(by_day)
    figures = [
        charts.day_bars("Inbound messages per day", dates,
                        {ch: [by_day[d][f"inbound.{ch}"] for d in dates] for ch in CHANNELS}),
        charts.day_bars("Work orders per day", dates,
                        {k: [by_day[d][f"work_orders.{k}"] for d in dates] for k in ("opened", "completed")}),
        charts.funnel("Leasing funnel", [("new leads", report.leads.new), ("tours booked", report.leads.tours_booked),
                                         ("tours completed", report.leads.tours_completed),
                                         ("applications", report.leads.applications)]),
    ]
    rows = [(key, html.link(link, "" if v is None else v) if (link := _behind(key, property_id)) else
             ("—" if v is None else v)) for key, v in flat(report)]
    options = [html.tag("option", "every property in scope", value="")] + [
        html.tag("option", p, value=p, selected=p == property_id) for p in sorted(scope.reads)]
    form = html.tag("form", html.tag("label", "property", html.tag("select", *options, name="property_id")),
                    html.tag("label", "days", html.tag("input", name="days", value=str(days), size="4")),
                    html.tag("button", "Show", type="submit"), method="get", class_="inline")
    csv_link = "/admin/api/reports?" + html.query(property_id=property_id, days=days, format="csv")
    return html.page("Reports", form, *figures, html.table(["measure", "value"], rows),
                     html.tag("p", html.link(csv_link, "as CSV"), " · ",
                              html.link("/admin/api/reports?" + html.query(property_id=property_id, days=days),
                                        "as JSON"), class_="muted"))
