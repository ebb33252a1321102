"""On-call paging under load, with the scheduler and a host killed mid-run: every page step sent
exactly once, every acknowledged ladder stopped within one tick.

One private Ray, the gateway on Serve (offline model, SQLite, 2 PersonActor hosts), Twilio's REST
API on the local stand-in (texts and calls). 20 bench properties, each with an on-call plan of two
levels (ack timeout 5 s, 1 repeat) and 10 tenants. 200 tenants each text "I smell gas in my
kitchen" over 10 s (signed Twilio webhooks over HTTP); every other page is acknowledged by its
level-1 person with `ACK <code>` as soon as a text with its code arrives (the page is the one the
report's turn started, read from the store by the turn's interaction id). Mid-run the PagingScheduler
and one PersonActor host are killed (Ray restarts both). When every ladder has ended, the outbox and the
stand-in are audited:

  * duplicated: a page row (text or call) that reached Twilio more than once;
  * skipped: a step the ladder took (or had to take) whose text or call never reached Twilio, and
    an unacknowledged ladder that did not run to exhaustion;
  * interrupted but delivered: a row Twilio got once whose sender was killed before it wrote the sid
    back (the row ends failed, "may have reached the person", and is never sent again);
  * ACK missed / no page: printed one by one, with what the gateway answered and the page's state;
  * late stops: a send of an acknowledged page claimed more than one tick (0.5 s) after the ACK
    (a send claimed before the ACK that reached Twilio after it is counted apart, in flight).

Prints those counts, the time from the inbound webhook to the first page text (p50, p99), and the
scheduler's CPU per page step (its restarted process: the first one's CPU died with it).

    .venv/bin/python bench/oncall.py [--properties 20] [--tenants 10] [--spread-s 10]
"""
from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import pct  # noqa: E402

AUTH_TOKEN, ACCOUNT_SID = "bench-twilio-token", "AC" + "b" * 32
NAMESPACE = "bench-oncall"
REPORT = "I smell gas in my kitchen"
TICK_S, ACK_TIMEOUT_S, REPEATS = 0.5, 5, 1
CODE = re.compile(r"Code (\d{4})")


def tenant_phone(p: int, n: int) -> str:
    return f"+1206{300 + p:03d}{n:04d}"


def oncall_phone(p: int, level: int) -> str:
    return f"+1303{400 + p:03d}{level:04d}"


def property_number(p: int) -> str:
    return f"+1425{500 + p:03d}0100"


def of_tenant(phone: str) -> tuple[int, int]:
    """(property index, tenant index) of a tenant's phone."""
    return int(phone[5:8]) - 300, int(phone[-4:])


async def seed_store(path: Path, properties: int, tenants: int) -> dict[str, str]:
    """The demo data and the bench properties; tenant phone -> (property number)."""
    from desk.portfolio.demo import seed
    from spine.identity import Claim, ClaimKind, OccupancyKind, Person, PersonRole, PersonRoleSource, RoleScope
    from spine.identity import PersonRoleType as T
    from spine.oncall import OnCallPlan
    from spine.property import Property, Unit
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine, lines = Spine(SqliteStore(path)), {}
    await seed(spine)
    for p in range(properties):
        pid, number = f"pf_bench_{p:02d}", property_number(p)
        await spine.put_property(Property(id=pid, org_id="org_propflow", name=f"Bench {p}", sms_number=number,
                                          voice_number=number))
        levels = []
        for level in (1, 2):
            person = f"p_oncall_{p:02d}_{level}"
            await spine.put_person(Person(id=person, display_name=f"Oncall {p} {level}",
                                          claims=[Claim(kind=ClaimKind.PHONE, value=oncall_phone(p, level))]))
            # On call only as the property's staff (issue 40 item 10: a page leaves out anyone else).
            await spine.put_role(PersonRole(id=f"sr_{person}", person_id=person, role_type=T.MAINTENANCE,
                                            source=PersonRoleSource.MANUAL_PM,
                                            scope=RoleScope(org_id="org_propflow", property_id=pid)))
            levels.append([person])
        await spine.put_oncall_plan(OnCallPlan(property_id=pid, levels=levels, ack_timeout_s=ACK_TIMEOUT_S,
                                               repeats=REPEATS))
        for n in range(tenants):
            unit, person, phone = f"u_bench_{p:02d}_{n}", f"p_bt_{p:02d}_{n}", tenant_phone(p, n)
            await spine.put_unit(Unit(id=unit, property_id=pid, number=str(100 + n), bedrooms=1, monthly_rent_usd=1500))
            await spine.put_person(Person(id=person, display_name=f"Tenant {p} {n}",
                                          claims=[Claim(kind=ClaimKind.PHONE, value=phone)]))
            await spine.put_role(PersonRole(id=f"r_{person}", person_id=person, role_type=T.TENANT,
                                            source=PersonRoleSource.PMS_SYNC, scope=RoleScope(
                                                org_id="org_propflow", property_id=pid, unit_id=unit,
                                                occupancy=OccupancyKind.PRIMARY)))
            lines[phone] = number
    await spine.store.close()
    return lines


class Run:
    def __init__(self, url: str, twilio, lines: dict[str, str]) -> None:
        import httpx

        self.url, self.twilio, self.lines = url, twilio, lines
        self.http = httpx.AsyncClient(base_url=url, timeout=60.0)
        self.sent_at: dict[str, float] = {}  # tenant phone -> when its report was posted
        self.answered_at: dict[str, float] = {}  # tenant phone -> when the turn's answer came back
        self.acks: list[asyncio.Task] = []
        self.reported: dict[str, object] = {}  # tenant phone -> the report's exchange
        self.spine = None  # the store, read once per ACK for the page's code
        self.ack_sent: dict[str, tuple[str | None, object]] = {}  # tenant phone -> (code, the ACK's exchange)

    async def text(self, from_: str, to: str, body: str):
        from gateway.cli.sms import send_sms

        return await send_sms(self.http, base_url=self.url, auth_token=AUTH_TOKEN, from_=from_, to=to, body=body,
                              account_sid=ACCOUNT_SID)

    async def report(self, phone: str, delay_s: float, ack: bool) -> None:
        await asyncio.sleep(delay_s)
        self.sent_at[phone] = time.monotonic()
        self.reported[phone] = await self.text(phone, self.lines[phone], REPORT)
        self.answered_at[phone] = time.monotonic()
        if ack:
            self.acks.append(asyncio.create_task(self._ack_when_paged(phone)))

    async def _ack_when_paged(self, tenant: str) -> None:
        """Level 1 answers `ACK <code>` as soon as the text of the tenant's page reaches them."""
        level1 = oncall_phone(of_tenant(tenant)[0], 1)
        page_code = await self._code_for(tenant, level1)
        exchange = await self.text(level1, self.lines[tenant], f"ACK {page_code}") if page_code else None
        self.ack_sent[tenant] = (page_code, exchange)

    async def _code_for(self, tenant: str, level1: str, timeout_s: float = 120.0) -> str | None:
        """The code of the tenant's page once a text carrying it reached level 1. The page is the
        one the report's turn started (read once from the store, by the turn's interaction id): two
        reports from one unit could not be told apart by the unit their texts name."""
        deadline = time.monotonic() + timeout_s
        code = await self._page_code(tenant)
        while code and time.monotonic() < deadline:
            if any(r.to == level1 and f"Code {code}." in r.body for r in self.twilio.accepted()):
                return code
            await asyncio.sleep(0.05)
        return None

    async def _page_code(self, tenant: str) -> str | None:
        import spine.keys as keys

        exchange = self.reported.get(tenant)
        interaction = getattr(exchange, "interaction_id", None)
        if self.spine is None or not interaction:
            return None
        found = await self.spine.store.get(keys.interaction_page(interaction))
        page = await self.spine.get_page(found.data["page_id"]) if found else None
        return page.code if page else None


def kill_midway(ray, at_s: float) -> asyncio.Task:
    from actors.control.scheduler import SCHEDULER_NAME
    from actors.host.host import host_name

    async def kill() -> None:
        await asyncio.sleep(at_s)
        ray.kill(ray.get_actor(SCHEDULER_NAME, namespace=NAMESPACE), no_restart=False)
        print(f"  t={at_s:.1f}s: killed the PagingScheduler", flush=True)
        await asyncio.sleep(2.0)
        ray.kill(ray.get_actor(host_name(0), namespace=NAMESPACE), no_restart=False)
        print(f"  t={at_s + 2:.1f}s: killed PersonActor host {host_name(0)}", flush=True)
    return asyncio.create_task(kill())


async def audit(store: Path, twilio, run: Run) -> dict:
    import spine.keys as keys
    from spine.oncall import Page, PageStatus
    from spine.records import OutboxStatus
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(store))
    pages = [Page.model_validate(i.data) for s in PageStatus
             for i in await spine.store.query_index(keys.pages_with_status(s))]
    rows = {r.id: r for s in OutboxStatus for r in await spine.outbox(s, limit=10000)}
    by_sid: dict[str, int] = {}
    for record in twilio.accepted() + twilio.calls:
        by_sid[record.sid] = by_sid.get(record.sid, 0) + 1
    at_by_sid = {r.sid: r.at for r in twilio.accepted() + twilio.calls}
    known = {r.provider_id for r in rows.values() if r.provider_id}
    orphans = [r for r in twilio.accepted() + twilio.calls if r.sid not in known]  # sends no row recorded
    counts = dict(pages=len(pages), acknowledged=0, exhausted=0, steps=0, duplicated=0, skipped=0, late_stops=0,
                  in_flight_at_ack=0, interrupted_but_delivered=0)
    first_page_ms, after_turn_ms = [], []
    tenants = {f"p_bt_{of_tenant(phone)[0]:02d}_{of_tenant(phone)[1]}": phone for phone in run.lines}
    for page in pages:
        counts["acknowledged"] += page.status == PageStatus.ACKNOWLEDGED
        counts["exhausted"] += page.status == PageStatus.EXHAUSTED
        if page.status == PageStatus.PAGING:
            counts["skipped"] += 1  # a ladder left running: its next step never came
        if page.status == PageStatus.EXHAUSTED and page.step != page.steps - 1:
            counts["skipped"] += page.steps - 1 - page.step
        counts["steps"] += page.step + 1
        for step in range(page.step + 1):
            for person in page.plan.levels[step % len(page.plan.levels)]:
                for channel in ("sms", "call"):
                    row = rows.get(f"page-{page.id}-{step}-{person}-{channel}")
                    blocked = row is not None and row.status == OutboxStatus.BLOCKED
                    if row is not None and row.status == OutboxStatus.FAILED and _reached(row, orphans):
                        counts["interrupted_but_delivered"] += 1  # sent once; the sender died before recording it
                        continue
                    if row is None or (row.status != OutboxStatus.SENT and not blocked):
                        counts["skipped"] += 1
                        claimed = row is not None and await spine.store.get(keys.once(keys.outbox_send_marker(row.id)))
                        print(f"  skipped: page {page.id} ({page.status}) step {step} {person} {channel}: row "
                              f"{row.status if row else 'never queued'}{', claimed' if claimed else ''}", flush=True)
                        continue
                    if row.status == OutboxStatus.SENT:
                        counts["duplicated"] += max(0, by_sid.get(row.provider_id or "", 0) - 1)
                        if (kind := await _after_ack(spine, page, row, at_by_sid)) is not None:
                            counts[kind] += 1
                    if step == 0 and channel == "sms" and row.provider_id in at_by_sid:
                        phone = tenants.get(page.reporter_person_id or "")
                        if phone in run.sent_at:
                            first_page_ms.append((at_by_sid[row.provider_id] - run.sent_at[phone]) * 1000)
                            after_turn_ms.append((at_by_sid[row.provider_id] - run.answered_at[phone]) * 1000)
    await _misses(spine, pages, run, twilio, tenants)
    # Twilio requests whose sid no row holds: a send whose answer was lost (also a duplicate risk)
    counts["orphan_sends"] = len(orphans)
    for r in orphans[:5]:
        print(f"  orphan: to …{r.to[-4:]} {r.form.get('Body', r.form.get('Url', ''))[:90]!r}", flush=True)
    await spine.store.close()
    return {**counts, "first_page_ms": first_page_ms, "after_turn_ms": after_turn_ms}


async def _after_ack(spine, page, row, at_by_sid: dict[str, float]) -> str | None:
    """A send of an acknowledged page that reached Twilio over a tick after the ACK: claimed more
    than a tick after it (late_stops) or before it (in_flight_at_ack); None otherwise."""
    import spine.keys as keys

    if page.acknowledged_at is None or row.provider_id not in at_by_sid:
        return None
    if at_by_sid[row.provider_id] - _mono(page.acknowledged_at) <= TICK_S:
        return None
    claim = await spine.store.get(keys.once(keys.outbox_send_marker(row.id)))
    claimed = datetime.fromisoformat(claim.data["at"]) if claim else None
    late = claimed is None or (claimed - page.acknowledged_at).total_seconds() > TICK_S
    return "late_stops" if late else "in_flight_at_ack"


async def _misses(spine, pages, run: Run, twilio, tenants: dict[str, str]) -> None:
    """For each intended ACK whose page was not acknowledged: what the gateway answered and the page's state."""
    from spine.oncall import PageStatus

    by_reporter = {tenants.get(p.reporter_person_id or ""): p for p in pages}
    for phone in sorted(set(run.lines) - set(by_reporter)):
        exchange = run.reported.get(phone)
        answer = exchange and (exchange.error or exchange.messages)
        print(f"  no page: tenant …{phone[-4:]} p{of_tenant(phone)[0]}: the report was answered {answer!r}", flush=True)
    for phone, (code, exchange) in sorted(run.ack_sent.items()):
        page = by_reporter.get(phone)
        if page is not None and page.status == PageStatus.ACKNOWLEDGED:
            continue
        level1 = oncall_phone(of_tenant(phone)[0], 1)
        texts = [r.body for r in twilio.accepted() if r.to == level1 and page is not None and page.code in r.body]
        answer = "no ACK sent (no page text found)" if exchange is None else (exchange.error or exchange.messages)
        print(f"  ACK missed: tenant …{phone[-4:]} p{of_tenant(phone)[0]} code {code}: answered {answer!r}; page "
              f"{page.id if page else None} {page.status if page else ''} step {page.step if page else ''} unit "
              f"{page.unit if page else ''} wo {page.work_order_display_id if page else ''} code "
              f"{page.code if page else ''}; its texts to level 1 with that code: {sorted(set(texts))!r}", flush=True)


def _reached(row, orphans) -> bool:
    """Whether Twilio got this row although no sid was written back (its sender was killed mid-send)."""
    if row.channel == "voice":
        return any(o.to == row.to_address and f"/voice/oncall/{row.page_id}?" in o.form.get("Url", "") for o in orphans)
    return any(o.to == row.to_address and o.body == row.body for o in orphans)


_CLOCK_SKEW: list[float] = []


def _mono(at) -> float:
    """A wall-clock instant on the monotonic clock the stand-in stamps records with."""
    if not _CLOCK_SKEW:
        _CLOCK_SKEW.append(time.time() - time.monotonic())
    return at.timestamp() - _CLOCK_SKEW[0]


async def drive(url: str, twilio, lines: dict[str, str], spread_s: float, ray, store: Path) -> Run:
    run = Run(url, twilio, lines)
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    run.spine = Spine(SqliteStore(store))
    phones = sorted(lines)
    killer = kill_midway(ray, spread_s / 2)
    started = time.monotonic()
    await asyncio.gather(*(run.report(phone, spread_s * i / len(phones), ack=i % 2 == 0)
                           for i, phone in enumerate(phones)))
    print(f"  {len(phones)} reports answered in {time.monotonic() - started:.1f}s", flush=True)
    await killer
    await asyncio.gather(*run.acks)
    await run.spine.store.close()
    await run.http.aclose()
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--properties", type=int, default=20)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--spread-s", type=float, default=10.0)
    args = parser.parse_args()

    import ray
    from ray import serve

    from actors.control.scheduler import SCHEDULER_NAME, SchedulerStats
    from gateway.app import build_app
    from tests.support.ray_fixtures import free_port
    from tests.support.twilio_server import TwilioStandIn

    workdir = Path(tempfile.mkdtemp(prefix="bench-oncall-"))
    store = workdir / "clara.db"
    lines = asyncio.run(seed_store(store, args.properties, args.tenants))
    ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(workdir / "ray"), configure_logging=False)
    with TwilioStandIn(account_sid=ACCOUNT_SID, auth_token=AUTH_TOKEN) as twilio:
        port = free_port()
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        url = f"http://127.0.0.1:{port}"
        env = {"GATEWAY_STORE": f"sqlite:///{store}", "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
               "TWILIO_ACCOUNT_SID": ACCOUNT_SID, "TWILIO_API_BASE": twilio.url, "GATEWAY_PUBLIC_URL": url}
        runtime = {"namespace": NAMESPACE, "hosts": 2, "host_num_cpus": 0.25, "dispatcher_num_cpus": 0.25,
                   "detached": False}
        serve.run(build_app({"runtime": runtime, "env": env}), name="clara", route_prefix="/")
        print(f"gateway on {url}; {len(lines)} tenants on {args.properties} properties; ack timeout "
              f"{ACK_TIMEOUT_S} s, {REPEATS} repeat(s)", flush=True)
        run = asyncio.run(drive(url, twilio, lines, args.spread_s, ray, store))
        ladder_s = ACK_TIMEOUT_S * 2 * (REPEATS + 1) + 10
        print(f"  waiting {ladder_s} s for every ladder to end", flush=True)
        time.sleep(ladder_s)
        stats = SchedulerStats.from_bytes(ray.get(ray.get_actor(SCHEDULER_NAME, namespace=NAMESPACE).stats.remote()))
        result = asyncio.run(audit(store, twilio, run))
    serve.shutdown()
    ray.shutdown()
    report(result, stats)
    return 0 if result["duplicated"] == result["skipped"] == result["late_stops"] == 0 else 1


def report(result: dict, stats) -> None:
    first, after = result.pop("first_page_ms"), result.pop("after_turn_ms")
    print("\nresults (the machine is shared: figures under contention)")
    for name in ("pages", "acknowledged", "exhausted", "steps", "duplicated", "skipped", "late_stops",
                 "in_flight_at_ack", "interrupted_but_delivered", "orphan_sends"):
        print(f"  {name:14} {result[name]}")
    if first:
        print(f"  inbound -> first page text: p50 {pct(first, 50):.0f} ms, p99 {pct(first, 99):.0f} ms (n={len(first)})")
        print(f"  turn's answer -> first page text: p50 {pct(after, 50):.0f} ms, p99 {pct(after, 99):.0f} ms "
              f"(negative: the text left before the turn answered)")
    per_step = stats.cpu_s * 1000 / stats.steps if stats.steps else float("nan")
    print(f"  scheduler (restarted process): {stats.ticks} ticks, {stats.steps} ladder steps, {stats.rows_sent} rows "
          f"sent, {stats.cpu_s * 1000:.0f} ms CPU: {per_step:.1f} ms CPU per ladder step (sends included)")


if __name__ == "__main__":
    sys.exit(main())
