"""Tiny HTML helpers for the admin pages: everything is escaped unless it is `Safe`.

Traces and events carry user text (messages, snippets, names), so no value reaches a page
without `html.escape`; only markup built here is marked Safe.
"""
from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from datetime import datetime
from urllib.parse import quote, urlencode

from fastapi.responses import HTMLResponse

NAV = [("/admin", "Index"), ("/admin/escalations", "Escalations"), ("/admin/conversations", "Conversations"),
       ("/admin/work-orders", "Work orders"), ("/admin/reports", "Reports"),
       ("/admin/status", "Status"), ("/admin/tools", "Tools"),
       ("/admin/traces/view", "Traces"), ("/admin/actors/view", "Actors"), ("/admin/ask", "Ask Clara")]

CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1f3a5f;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#dbe7f5;text-decoration:none}header a:hover{color:#fff;text-decoration:underline}
header b{margin-right:1rem}main{padding:1rem 1.4rem;max-width:1200px}
h1{font-size:1.35rem;margin:.4rem 0 1rem}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
table{border-collapse:collapse;background:#fff;margin:.3rem 0 1rem;width:100%}
th,td{border:1px solid #d9dee4;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f5;font-weight:600}tr.mark td{border-top:3px dashed #c05600}
.card{background:#fff;border:1px solid #d9dee4;border-radius:6px;padding:.8rem 1rem;margin-bottom:1rem}
.card h2{margin-top:0}table.kv th{width:12rem}tr.mark td{background:#fff4e5}
.alarm{background:#fdecea;border-left:4px solid #c62828;padding:.5rem .8rem;margin:.5rem 0}
.ok{background:#e9f6ec;border-left:4px solid #2e7d32;padding:.5rem .8rem;margin:.5rem 0}
.pill{display:inline-block;padding:0 .45rem;border-radius:9px;background:#e3e8ef;margin:0 .15rem .15rem 0;font-size:12px}
.bad{background:#f9d6d3}.good{background:#d4eeda}.muted{color:#6b7580}
pre{background:#f0f2f5;padding:.5rem;white-space:pre-wrap;word-break:break-word;margin:0}
.inline{display:flex;gap:.6rem;align-items:end;flex-wrap:wrap;margin-bottom:1rem}form{max-width:1000px}
label{display:flex;flex-direction:column;font-size:12px;color:#46505a}
input,select,textarea{font:inherit;padding:.25rem .4rem}textarea{width:100%;min-height:5rem}
figure.chart{background:#fff;border:1px solid #d9dee4;margin:0 0 1rem;padding:.5rem}figcaption{font-weight:600}
button{font:inherit;padding:.3rem .9rem;background:#1f3a5f;color:#fff;border:0;border-radius:4px}
"""


VOID = frozenset({"input", "br", "meta", "hr"})


class Safe(str):
    """Markup built by these helpers; never wrap user text in it."""


def esc(value: object) -> Safe:
    if isinstance(value, Safe):
        return value
    if value is None:
        return Safe("")
    if isinstance(value, datetime):
        value = value.strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    return Safe(html.escape(str(value), quote=True))


def join(parts: Iterable[object], sep: str = "") -> Safe:
    return Safe(esc(sep).join(esc(p) for p in parts))


def tag(element: str, /, *children: object, **attrs: object) -> Safe:
    """<element attr="...">children</element>; attribute names take `_` for `-` and a trailing `_`
    (class_=...); None and False attributes are left out."""
    rendered = "".join(
        f' {k.rstrip("_").replace("_", "-")}' + ("" if v is True else f'="{esc(v)}"')
        for k, v in attrs.items() if v is not None and v is not False
    )
    if element in VOID:
        return Safe(f"<{element}{rendered}>")
    return Safe(f"<{element}{rendered}>{join(children)}</{element}>")


def link(href: str, text: object) -> Safe:
    return tag("a", text, href=href)


def path_part(value: str) -> str:
    """A user-supplied id as one URL path segment."""
    return quote(value, safe="")


def query(**params: object) -> str:
    return urlencode({k: v for k, v in params.items() if v not in (None, "")})


def pill(text: object, kind: str = "") -> Safe:
    return tag("span", text, class_=f"pill {kind}".strip())


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, empty: str = "none",
          marked_row: int | None = None) -> Safe:
    """A table; `marked_row` draws a dashed line above that row (the cache breakpoint)."""
    head = tag("tr", *(tag("th", h) for h in headers))
    body = [tag("tr", *(tag("td", c) for c in row), class_="mark" if i == marked_row else None)
            for i, row in enumerate(rows)]
    if not body:
        body = [tag("tr", tag("td", tag("span", empty, class_="muted"), colspan=len(headers)))]
    return tag("table", tag("thead", head), tag("tbody", *body))


def kv_table(pairs: Iterable[tuple[str, object]]) -> Safe:
    return tag("table", *(tag("tr", tag("th", k), tag("td", v)) for k, v in pairs), class_="kv")


def counts_table(title: str, counts: dict[str, int]) -> Safe:
    return table([title, "count"], list(counts.items()))


def alarm(text: object, on: bool, ok_text: object) -> Safe:
    return tag("div", text, class_="alarm") if on else tag("div", ok_text, class_="ok")


def card(title: str, *children: object) -> Safe:
    return tag("section", tag("h2", title), *children, class_="card")


def page(title: str, *body: object, status_code: int = 200, nav: bool = True) -> HTMLResponse:
    links = join(link(href, text) for href, text in NAV) if nav else Safe("")
    doc = Safe("<!doctype html>") + tag(
        "html",
        tag("head", Safe('<meta charset="utf-8">'), tag("title", f"{title} · Clara admin"), tag("style", Safe(CSS))),
        tag("body", tag("header", tag("b", "Clara admin"), links), tag("main", tag("h1", title), *body)),
        lang="en",
    )
    return HTMLResponse(doc, status_code=status_code, headers={"Cache-Control": "no-store"})
