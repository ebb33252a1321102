"""bench/pms_sync.py's pieces: the stand-in in its own process, a client over the same records
with no HTTP (the import-apply bound), and the webhook -> routing timings."""
from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from gateway.pms.buildium.client import BuildiumClient, Params, _read
from gateway.settings import Settings
from spine.repo import Spine
from tests.support.buildium_helpers import Account, large_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub, _kept, sign_webhook
from tools.authority import derive_authority

M = TypeVar("M", bound=BaseModel)
SECRET = "bench-webhook-secret"


def _move_out(account: Account, lease: dict[str, Any]) -> tuple[int, int]:
    lease["Tenants"][0]["Status"] = "MovedOut"
    account.touch("leases", lease["Id"])
    return lease["Tenants"][0]["Id"], lease["PropertyId"]


def serve_account(conn: Connection, units: int) -> None:
    """The stand-in over a large account, 50-150 ms a request, 10 a second; commands by pipe."""
    account = large_account(units)
    with BuildiumStub(account, latency_s=(0.05, 0.15), check_each_operation_once=True) as stub:
        conn.send(stub.url)
        while True:
            command, arg = conn.recv()
            if command == "change":  # `arg` move-outs, spread over the account
                conn.send([_move_out(account, account.leases[i * 97 % len(account.leases)]) for i in range(arg)])
            elif command == "move_out":
                conn.send(_move_out(account, account.lease(arg)))
            elif command == "stats":
                conn.send({"requests": len(stub.requests), "throttled": stub.throttled,
                           "contract violations": len(stub.violations)})
            else:
                conn.send("stopped")
                return


class InMemoryClient:
    """BuildiumClient's reading interface over the account itself: the sync with no HTTP."""

    def __init__(self, account: Account) -> None:
        self.stub, self.requests = BuildiumStub(account), 0  # never started: its record lists and filters

    async def pages(self, path: str, model: type[M], params: Params | None = None) -> AsyncIterator[Any]:
        query = {k.lower(): [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in (params or {}).items()}
        records = [r for r in self.stub._records(path) if _kept(self.stub.account, path, r, query)]
        for at in range(0, len(records), 1000):
            self.requests += 1
            yield _read(path, model, records[at:at + 1000])
        if not records:
            self.requests += 1

    async def get(self, path: str, model: type[M]) -> M:
        raise NotImplementedError(path)


class _NoTurns:
    async def submit(self, envelope: Any) -> Any:
        raise RuntimeError("the bench runs no turns")

    async def actors(self) -> list[Any]:
        return []

    async def host_names(self) -> list[str]:
        return []

    async def apply(self, config: Any) -> None:
        return None


async def run_webhooks(spine: Spine, client: BuildiumClient, ask: Any, count: int) -> list[float]:
    """`count` move-outs, each: changed in Buildium, its Lease.Updated signed and posted to the
    gateway's route, timed until a fresh derivation no longer has the tenant role."""
    from gateway.app import create_app  # imported here: the sync's peak RSS is measured without Ray's imports
    from gateway.context import GatewayContext

    settings = Settings(store_url="sqlite:///unused", buildium_client_id=CLIENT_ID, buildium_client_secret=CLIENT_SECRET,
                        buildium_api_base=client.base, buildium_webhook_secret=SECRET)
    context = GatewayContext(settings, spine, _NoTurns())  # type: ignore[arg-type]
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url="http://bench")
    took = []
    for n in range(count):
        lease_id = 300_000 + 1 + n * 13
        tenant_id, rental_id = ask(("move_out", lease_id))
        body = (f'{{"EventName":"Lease.Updated","EventDateTime":"2026-12-06T10:00:{n % 60:02d}.0000000Z",'
                f'"AccountId":1,"LeaseId":{lease_id}}}').encode()
        stamp = str(int(time.time()))
        started = time.perf_counter()
        reply = await http.post("/pms/buildium/webhook", content=body, headers={
            "buildium-webhook-timestamp": stamp, "buildium-webhook-signature": sign_webhook(SECRET, stamp, body),
            "Content-Type": "application/json"})
        assert reply.status_code == 200, reply.text
        while True:
            authority = await derive_authority(spine, f"p_buildium_tenant-{tenant_id}",
                                               f"prop_buildium_rental-{rental_id}", time.time())
            if "tenant" not in authority.facts.role_types:
                break
            await asyncio.sleep(0.01)
        took.append(time.perf_counter() - started)
    await http.aclose()
    await context.http.aclose()
    if context.buildium is not None:
        await context.buildium.aclose()
    return took
