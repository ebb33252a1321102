"""On-call pages in evals: time passing for the ladder (a shifted clock), a keypress on the paging
call (through the real /voice/oncall routes, signed as Twilio signs them), and the checks of a
turn's `page` and `outbox` expectations against the scenario's store."""
from __future__ import annotations

import httpx
from fastapi import FastAPI
from twilio.request_validator import RequestValidator

import spine.keys as keys
from actors.control.scheduler import Ladders
from gateway.evals.clock import EvalClock
from gateway.evals.scenario import TurnExpectation
from gateway.settings import Settings
from gateway.voice.oncall_routes import router
from spine.oncall import Page, PageStatus
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine

STEP_S = 5.0  # the shortest ack timeout: the shifted clock moves in steps no ladder can skip
AUTH_TOKEN, ACCOUNT_SID, PUBLIC_URL = "eval-twilio-token", "AC" + "e" * 32, "https://clara.eval"


class Clock:
    """Time passing for the ladder in a scenario: the scenario's one clock (the spine's, which the
    contact window reads too) moved on in steps, the ladder ticked at each."""

    def __init__(self, spine: Spine, wall: EvalClock) -> None:
        self.ladders, self.wall = Ladders(spine, None), wall

    async def advance(self, seconds: float) -> None:
        left = seconds
        while left > 0:
            step = min(left, STEP_S)
            self.wall.shift(step)
            left -= step
            await self.ladders.tick()  # at the spine's clock


async def latest_page(spine: Spine) -> Page | None:
    pages = [Page.model_validate(i.data) for status in PageStatus
             for i in await spine.store.query_index(keys.pages_with_status(status))]
    return max(pages, key=lambda p: p.created_at) if pages else None


class _Context:
    """What the /voice/oncall routes read from a GatewayContext: the settings and the store."""

    def __init__(self, spine: Spine) -> None:
        self.spine = spine
        self.settings = Settings(twilio_auth_token=AUTH_TOKEN, twilio_account_sid=ACCOUNT_SID, public_url=PUBLIC_URL)


async def press(spine: Spine, person_id: str, digit: str) -> str:
    """The person picks up the latest page's call and presses `digit`: the TwiML Twilio would get."""
    page = await latest_page(spine)
    if page is None:
        return "(no page to call about)"
    app = FastAPI()
    app.include_router(router)
    app.state.context = _Context(spine)
    url = f"{PUBLIC_URL}/voice/oncall/{page.id}/gather?person_id={person_id}"
    form = {"AccountSid": ACCOUNT_SID, "CallSid": "CA" + "0" * 32, "From": "+12065550100", "To": "+10000000000",
            "CallStatus": "in-progress", "Direction": "outbound-api", "ApiVersion": "2010-04-01", "Digits": digit}
    headers = {"X-Twilio-Signature": RequestValidator(AUTH_TOKEN).compute_signature(url, form)}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=PUBLIC_URL) as client:
        return (await client.post(url, data=form, headers=headers)).text


async def _rows(spine: Spine) -> list[OutboxMessage]:
    return [row for status in OutboxStatus for row in await spine.outbox(status, limit=1000)]


async def check_oncall(spine: Spine, expect: TurnExpectation) -> list[str]:
    failures: list[str] = []
    if (want := expect.page) is not None:
        page = await latest_page(spine)
        status = page.status if page else "none"
        if status != want.status:
            failures.append(f"page: wanted {want.status}, got {status}")
        if page is not None and want.paged is not None and page.paged_person_ids != want.paged:
            failures.append(f"page: wanted {want.paged} paged, got {page.paged_person_ids}")
        for name in ("acknowledged_by", "acknowledged_via"):
            wanted = getattr(want, name)
            if wanted is not None and (got := getattr(page, name, None)) != wanted:
                failures.append(f"page {name}: wanted {wanted}, got {got}")
    rows = await _rows(spine) if (expect.outbox or expect.no_outbox) else []
    for row_want in expect.outbox:
        if not any(row_want.to in (r.recipient_person_id, r.to_address) and row_want.contains.lower() in r.body.lower()
                   and (row_want.channel is None or r.channel == row_want.channel) for r in rows):
            failures.append(f"outbox: no row to {row_want.to} with {row_want.contains!r}; to them: "
                            f"{[r.body[:60] for r in rows if r.recipient_person_id == row_want.to]}")
    failures += [f"outbox: {who} got a row but should not" for who in expect.no_outbox
                 if any(r.recipient_person_id == who for r in rows)]
    return failures
