"""A stand-in of Buildium's Open API: a real HTTP server on 127.0.0.1 (tests/support/threaded_server.py)
serving an `Account` (tests/support/buildium_helpers.py) the way Buildium does: the two key headers
(401 without them), `limit` (at most 1000) / `offset` pagination with `X-Total-Count`, 10 requests a
second (429 past it), the list filters the product uses, and resident request tasks created.

Every request is checked against Buildium's OpenAPI document and every response it serves too
(tests/support/buildium_contract_helpers.py): `violations` lists each mismatch, and a test asserts none.
A 429 is Buildium's documented rate limit but not in the document, so its body is not checked.

Faults a test scripts: `throttle` (429 the next N requests), `latency_s` (a delay per request,
(low, high) seconds), `lose_next_create` (a task is created, then its response never comes), `hold`
(a list's page answered only once `release` is set; `held` is set when it arrives)."""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import random
import threading
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

from tests.support.buildium_contract_helpers import Operation, Violations, check_request, check_response
from tests.support.buildium_helpers import Account, Record
from tests.support.threaded_server import ThreadedServer

CLIENT_ID, CLIENT_SECRET = "buildium-test-client", "buildium-test-secret-s3cr3t"
PAGE_MAX = 1000
RATE_PER_S = 10.0


def sign_webhook(secret: str, timestamp: str, body: bytes) -> str:
    """Buildium's webhook signature: base64 of HMAC-SHA256 over the timestamp, a period, the raw body
    (the document's "Signature Checks": `$"{timestamp}.{eventNotificationMessage}"`)."""
    signed = timestamp.encode() + b"." + body
    return base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()


class BuildiumStub(ThreadedServer):
    name = "Buildium stand-in"

    def __init__(self, account: Account, *, latency_s: tuple[float, float] = (0.0, 0.0),
                 check_each_operation_once: bool = False) -> None:
        super().__init__()
        # The bench's setting: a 1,000-record page takes seconds to check, which would measure the
        # stand-in instead of the gateway; the tests check every response.
        self.checked: set[str] | None = set() if check_each_operation_once else None
        self.account = account
        self.latency_s = latency_s
        self.violations = Violations()
        self.requests: list[tuple[str, str]] = []  # (method, path?query) in arrival order
        self.throttled = 0  # 429s served (scripted or earned)
        self.throttle = 0  # the next N requests get a 429
        self.lose_next_create = False
        self.hold: tuple[str, int] | None = None  # (list path, offset): that page waits for `release`
        self.held, self.release = threading.Event(), threading.Event()
        self.rate_per_s = RATE_PER_S
        self._lock = threading.Lock()
        self._tokens, self._at = RATE_PER_S, time.monotonic()

    def routes(self, app: web.Application) -> None:
        app.router.add_route("*", "/{tail:.*}", self._serve)

    def count(self, path: str) -> int:
        return sum(1 for _, p in self.requests if p.split("?")[0] == path)

    def _over_rate(self) -> bool:
        """Buildium's limit as a token bucket: 10 a second, a burst of 10."""
        with self._lock:
            now = time.monotonic()
            self._tokens = min(RATE_PER_S, self._tokens + (now - self._at) * self.rate_per_s)
            self._at = now
            if self._tokens < 1:
                return True
            self._tokens -= 1
            return False

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        if self.latency_s[1]:
            await asyncio.sleep(random.uniform(*self.latency_s))
        body = await request.read()
        self.requests.append((request.method, request.path_qs))
        op = check_request(request.method, request.path, request.query_string, body or None,
                           request.headers.get("Content-Type", ""), self.violations)
        if op is None:
            return web.json_response({"UserMessage": "not found"}, status=404)
        if (request.headers.get("x-buildium-client-id"), request.headers.get("x-buildium-client-secret")) != \
                (CLIENT_ID, CLIENT_SECRET):
            self.violations.add(f"{request.method} {request.path}", "without the two key headers")
            return self._answer(op, 401, {"UserMessage": "The API key couldn't be authorized.", "ErrorCode": None,
                                          "Errors": None})
        if self.throttle > 0 or self._over_rate():
            self.throttle = max(0, self.throttle - 1)
            self.throttled += 1
            return web.json_response({"UserMessage": "Too many requests"}, status=429, headers={"Retry-After": "1"})
        query = parse_qsl(request.query_string)
        if self.hold == (request.path, int(dict(query).get("offset", "0"))):
            self.held.set()
            while not self.release.is_set():
                await asyncio.sleep(0.01)
        if op.method == "GET" and "{" not in op.template:
            return self._list(op, query)
        if op.method == "GET":
            return self._one(op, request.path)
        if op.method == "PUT":
            return self._update(op, request.path, json.loads(body))
        return await self._create(op, json.loads(body))

    def _answer(self, op: Operation, status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
        if self.checked is None or f"{op.method} {op.template} {status}" not in self.checked:
            check_response(op, status, body, headers or {}, self.violations)
            if self.checked is not None:
                self.checked.add(f"{op.method} {op.template} {status}")
        return web.json_response(body, status=status, headers=headers)

    def _list(self, op: Operation, query: list[tuple[str, str]]) -> web.Response:
        params: dict[str, list[str]] = {}
        for name, value in query:
            params.setdefault(name.lower(), []).append(value)
        limit = int(params.get("limit", ["50"])[0])
        offset = int(params.get("offset", ["0"])[0])
        if limit > PAGE_MAX:
            self.violations.add(f"GET {op.template}", f"limit {limit} is above Buildium's {PAGE_MAX}")
            return self._answer(op, 400, {"UserMessage": "limit", "ErrorCode": None, "Errors": None})
        records = [r for r in self._records(op.template) if _kept(self.account, op.template, r, params)]
        page = records[offset:offset + limit]
        return self._answer(op, 200, page, {"X-Total-Count": str(len(records))})

    def _records(self, template: str) -> list[Record]:
        a = self.account
        return {"/v1/rentals": a.rentals, "/v1/rentals/units": a.units, "/v1/rentals/units/listings": a.listings,
                "/v1/leases": a.leases, "/v1/leases/tenants": a.tenants, "/v1/vendors": a.vendors,
                "/v1/tasks/residentrequests": a.tasks, "/v1/workorders": a.work_orders,
                "/v1/leases/outstandingbalances": a.balances, "/v1/leases/renewals": a.renewals,
                "/v1/rentals/appliances": a.appliances}.get(template, [])

    def _one(self, op: Operation, path: str) -> web.Response:
        record_id = int(path.rstrip("/").rsplit("/", 1)[1])
        base = op.template.rsplit("/", 1)[0]
        found = next((r for r in self._records(base) if r["Id"] == record_id), None)
        if found is None:
            return self._answer(op, 404, {"UserMessage": "Resource not found.", "ErrorCode": None, "Errors": None})
        return self._answer(op, 200, found)

    async def _create(self, op: Operation, body: Record) -> web.StreamResponse:
        if op.template == "/v1/tasks/residentrequests":
            made, kind = _task(len(self.account.tasks) + 9001, body), "tasks"
            self.account.tasks.append(made)
        elif op.template == "/v1/workorders":
            made, kind = _work_order(len(self.account.work_orders) + 8001, body), "work_orders"
            self.account.work_orders.append(made)
        else:
            return self._answer(op, 422, {"UserMessage": "not supported by the stand-in", "ErrorCode": None,
                                          "Errors": None})
        self.account.touch(kind, made["Id"])
        if self.lose_next_create:  # created, and the answer never arrives (the client times out)
            self.lose_next_create = False
            await asyncio.sleep(30)
        return self._answer(op, 201, made, {"Location": f"{op.template}/{made['Id']}"})

    def _update(self, op: Operation, path: str, body: Record) -> web.Response:
        """A task's PUT: its status, priority and title; its Message kept as history."""
        if op.template != "/v1/tasks/residentrequests/{residentRequestTaskId}":
            return self._answer(op, 422, {"UserMessage": "not supported by the stand-in", "ErrorCode": None,
                                          "Errors": None})
        task_id = int(path.rstrip("/").rsplit("/", 1)[1])
        task = next((t for t in self.account.tasks if t["Id"] == task_id), None)
        if task is None:
            return self._answer(op, 404, {"UserMessage": "Resource not found.", "ErrorCode": None, "Errors": None})
        task.update({k: body[k] for k in ("Title", "TaskStatus", "Priority")})
        if body.get("Message"):
            self.account.history.setdefault(task_id, []).append(body["Message"])
        self.account.touch("tasks", task_id)
        return self._answer(op, 200, task)


def _task(task_id: int, body: Record) -> Record:
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return {"Id": task_id, "Category": None, "Title": body["Title"], "Description": body.get("Description"),
            "Property": None, "UnitId": 0, "UnitAgreement": {"Id": body["UnitAgreementId"], "Type": "Lease",
                                                              "Href": None},
            "RequestedByUserEntity": None, "AssignedToUserId": None, "TaskStatus": body["TaskStatus"],
            "Priority": body["Priority"], "DueDate": None, "CreatedDateTime": now, "LastUpdatedDateTime": now,
            "Appliance": None, "IsEntryPermittedByResident": None, "DoesResidentHavePets": None,
            "ResidentEntryNotes": None}


def _work_order(order_id: int, body: Record) -> Record:
    task = {"Id": body["TaskId"], "Type": "ResidentRequest", "UnitId": None, "UnitAgreement": None,
            "Title": body.get("Title"), "DueDate": None, "Priority": "Normal", "Status": "New"}
    return {"Id": order_id, "Task": task, "Title": body.get("Title"),
            "DueDate": None, "Priority": "Normal", "Status": "New", "WorkDetails": body.get("WorkDetails"),
            "InvoiceNumber": None, "ChargeableTo": None, "EntryAllowed": body["EntryAllowed"], "EntryNotes": None,
            "VendorId": body["VendorId"], "VendorNotes": None, "EntryContact": None, "EntryContacts": [],
            "BillTransactionId": None, "BillTransactionIds": [], "Amount": 0.0, "LineItems": []}


_KIND = {"/v1/rentals": "rentals", "/v1/rentals/units": "units", "/v1/leases": "leases",
         "/v1/leases/tenants": "tenants", "/v1/vendors": "vendors", "/v1/tasks/residentrequests": "tasks"}


def _kept(account: Account, template: str, record: Record, params: dict[str, list[str]]) -> bool:
    """The filters Buildium applies that the product sends (others are ignored by the stand-in)."""
    since = params.get("lastupdatedfrom")
    if since:
        at = account.updated.get((_KIND.get(template, ""), record["Id"]))
        if at is None or at < datetime.fromisoformat(since[0].replace("Z", "+00:00")).replace(tzinfo=at.tzinfo or UTC):
            return False
    if template == "/v1/leases" and "leasestatuses" in params:
        return record["LeaseStatus"] in params["leasestatuses"]
    if template == "/v1/vendors" and "status" in params:
        return ("Active" if record["IsActive"] else "Inactive") in params["status"]
    if template == "/v1/rentals" and "status" in params:
        return ("Active" if record["IsActive"] else "InActive") in params["status"]
    if template == "/v1/tasks/residentrequests" and "unitagreementid" in params:
        return str(record["UnitAgreement"]["Id"]) in params["unitagreementid"]
    if template == "/v1/workorders" and "taskids" in params:
        return str(record["Task"]["Id"]) in params["taskids"]
    return True
