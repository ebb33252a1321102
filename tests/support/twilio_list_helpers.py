"""The read side of the Twilio stand-in: `GET .../Messages.json` and `GET .../Calls.json`, Twilio's
list resources, with the filters Twilio documents. Messages: `To`, `From`, `DateSent` (and the
ranges `DateSent<`, `DateSent>`, `DateSent<=`, `DateSent>=`); Calls: `To`, `From`, `StartTime`
(the same ranges). As Twilio's docs say, a date filter compares the GMT date (`YYYY-MM-DD`, or
the date part of a date-time the helper libraries send): `DateSent>=2026-12-02` is every message
sent on or after midnight of that day. Newest first, paged by `PageSize` (default 50, at most
1000) and `Page`, with Twilio's page envelope (`first_page_uri`, `next_page_uri`, ...)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime
from email.utils import format_datetime
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 50, 1000
_RANGES: dict[str, Callable[[date, date], bool]] = {
    "": lambda day, wanted: day == wanted, "<": lambda day, wanted: day <= wanted,
    "<=": lambda day, wanted: day <= wanted, ">": lambda day, wanted: day >= wanted,
    ">=": lambda day, wanted: day >= wanted,
}


def rfc2822(at: datetime) -> str:
    return format_datetime(at, usegmt=True)


def _day(spelled: str) -> date:
    return date.fromisoformat(spelled.strip()[:10])


def _date_filters(query: dict[str, str], name: str) -> list[tuple[Callable[[date, date], bool], date]]:
    """The query's `name`, `name<`, `name>=`, ... filters. aiohttp splits `DateSent>=2026-12-02` at
    its `=`: the key is `DateSent>` and the value `2026-12-02`, so `>` and `>=` mean the same."""
    return [(test, _day(query[name + op])) for op, test in _RANGES.items() if query.get(name + op)]


def matching(records: Iterable[Any], query: dict[str, str], date_field: str, when: Callable[[Any], datetime]) -> list:
    """The records the query's To, From and date filters keep, newest first."""
    kept = []
    filters = _date_filters(query, date_field)
    for record in records:
        if query.get("To") and record.to != query["To"]:
            continue
        if query.get("From") and record.form.get("From") != query["From"]:
            continue
        if all(test(when(record).date(), wanted) for test, wanted in filters):
            kept.append(record)
    return sorted(kept, key=when, reverse=True)


def list_page(request: web.Request, key: str, resources: list[dict[str, Any]]) -> web.Response:
    """Twilio's list envelope over `resources` (already filtered and ordered)."""
    query = dict(request.query)
    size = min(MAX_PAGE_SIZE, max(1, int(query.get("PageSize", DEFAULT_PAGE_SIZE))))
    page = max(0, int(query.get("Page", 0)))
    path = request.path

    def uri(number: int) -> str:
        return f"{path}?{urlencode({**query, 'Page': number, 'PageSize': size})}"

    start = page * size
    chunk = resources[start:start + size]
    more = start + size < len(resources)
    return web.json_response({
        key: chunk, "page": page, "page_size": size, "start": start, "end": start + max(0, len(chunk) - 1),
        "uri": uri(page), "first_page_uri": uri(0), "next_page_uri": uri(page + 1) if more else None,
        "previous_page_uri": uri(page - 1) if page > 0 else None,
    })
