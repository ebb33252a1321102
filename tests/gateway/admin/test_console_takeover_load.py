"""Take over and hand back under load: 50 people texting through the real SMS webhook and real
PersonActors (in-process host, offline model) while 10 of them are taken over, written to and
handed back at random. Nothing Clara says reaches a person while staff answer, no inbound is
lost, and every staff message leaves the outbox once (its POST retried, the outbox swept twice)."""
from __future__ import annotations

import asyncio
import random
import time

from gateway.outbox_sender import OutboxSender
from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.records import InboundStatus
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app
from tests.support.gateway_helpers import text

PEOPLE, TAKEN, TEXTS = 50, 10, 4


def sid(i: int, n: int) -> str:
    return f"SM{i:016x}{n:016x}"


def phone(i: int) -> str:
    return f"+1206555{3000 + i:04d}"


async def people(spine) -> list[str]:
    ids = []
    for i in range(PEOPLE):
        pid = f"p_load_{i:02d}"
        await spine.put_person(Person(id=pid, display_name=f"Tenant {i}", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                        value=phone(i))]))
        await spine.put_role(PersonRole(id=f"r_load_{i}", person_id=pid, role_type=PersonRoleType.TENANT,
                                        source=PersonRoleSource.PMS_SYNC, scope=RoleScope(unit_id="u_yale_110")))
        ids.append(pid)
    return ids


async def test_fifty_people_ten_taken_over(spine, twilio):
    rng = random.Random(25)
    client, context = console_app(spine, twilio=twilio)
    ids = await people(spine)
    windows: dict[str, list[tuple[float, float]]] = {}
    sent: list[tuple[str, str, float, float, str]] = []  # person, body, start, end, reply
    staff_bodies: list[str] = []

    async def send(i: int, n: int, body: str) -> None:
        start = time.monotonic()
        exchange = await text(client, body, from_=phone(i), sid=sid(i, n))
        assert exchange.status_code == 200, exchange.error
        sent.append((ids[i], body, start, time.monotonic(), " ".join(exchange.messages)))

    async def texting(i: int) -> None:
        for n in range(TEXTS):
            await asyncio.sleep(rng.uniform(0, 0.6))
            await send(i, n, f"question {n} from {i}: what are the office hours?")

    async def staffing(i: int) -> None:
        pid = ids[i]
        for round_ in range(2):
            await asyncio.sleep(rng.uniform(0, 0.4))
            if rng.random() < 0.5:
                assert (await client.post(f"/admin/api/conversations/{pid}/takeover", headers=AUTH)).status_code == 200
            begun = time.monotonic()
            body = f"staff note {round_} to {pid}"
            for _ in range(2):  # a retried POST (same Idempotency-Key) queues once
                answer = await client.post(f"/admin/api/conversations/{pid}/messages", json={"text": body, "urgent": True},
                                           headers={**AUTH, "Idempotency-Key": f"{pid}-{round_}"})
                assert answer.status_code == 200 and answer.json()["mode"] == "staff", answer.text
            staff_bodies.append(body)
            await asyncio.sleep(rng.uniform(0, 0.3))
            await send(i, TEXTS + round_, f"answer {round_} to staff from {i}")  # surely inside the window
            await asyncio.sleep(rng.uniform(0, 0.3))
            windows.setdefault(pid, []).append((begun, time.monotonic()))
            assert (await client.post(f"/admin/api/conversations/{pid}/handback", headers=AUTH)).json()["mode"] == "clara"

    started = time.monotonic()
    try:
        await asyncio.gather(*(texting(i) for i in range(PEOPLE)), *(staffing(i) for i in rng.sample(range(PEOPLE), TAKEN)))
        elapsed = time.monotonic() - started
        # The outbox sender (the paging scheduler's tick) on two replicas at once, twice: each row leaves once.
        senders = [OutboxSender(spine, context.settings) for _ in range(2)]
        for _ in range(2):
            await asyncio.gather(*(sender.send_due() for sender in senders))
        for sender in senders:
            await sender.aclose()
    finally:
        await client.aclose()
        await context.sms.drain()
        await context.http.aclose()

    # 0 Clara replies to a taken-over person: no text sent and answered wholly inside a staff window got a reply.
    inside = [(p, b, r) for p, b, s, e, r in sent for w0, w1 in windows.get(p, []) if w0 <= s and e <= w1]
    assert len(inside) >= 2 * TAKEN, "the load never texted a person while staff answered"
    assert [x for x in inside if x[2]] == []
    # ... and in the store: no held message has an answer from Clara.
    held = 0
    for pid in windows:
        convo = await spine.messages_of(pid, "pf_yale")
        answered = {m.interaction_id for m in convo if m.author == "clara"}
        unread = [m for m in convo if m.author == "person" and m.unread]
        held += len(unread)
        assert not [m.text for m in unread if m.interaction_id in answered]
    assert held >= len(inside)
    # 0 lost inbound: every text is in its person's conversation once, and its inbound record ended.
    for pid in ids:
        said = [m.text for m in await spine.messages_of(pid, "pf_yale") if m.author == "person"]
        assert sorted(said) == sorted(b for p, b, *_ in sent if p == pid)
    for i in range(PEOPLE):
        for n in range(TEXTS + 2):
            record = await spine.get_inbound(sid(i, n))
            assert record is not None or n >= TEXTS
            assert record is None or record.status in (InboundStatus.ANSWERED, InboundStatus.BLOCKED, InboundStatus.HELD)
    # Every staff message delivered once.
    delivered = [s.body for s in twilio.sent if s.body.startswith("staff note")]
    assert sorted(delivered) == sorted(staff_bodies) and len(staff_bodies) == 2 * TAKEN
    print(f"\n{len(sent)} texts, {len(inside)} inside a staff window, {held} held, "
          f"{len(delivered)} staff messages in {elapsed:.1f}s")
