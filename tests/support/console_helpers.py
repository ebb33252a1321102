"""Shared pieces of the staff console tests: the gateway over real PersonActors in-process (a
HostPool over one PersonHost, no Ray), escalations as the tool writes them, staff credentials."""
from __future__ import annotations

import time
from datetime import timedelta

import httpx

from actors.client.pool import HostPool
from actors.config import RuntimeConfig
from actors.host.host import host_name, owner_id
from gateway.app import create_app
from gateway.context import GatewayContext
from gateway.settings import TakeoverOptions
from spine.escalation import Escalation
from spine.identity import utcnow
from spine.repo import Spine
from tests.support.actor_helpers import InProcess, real_host
from tests.support.admin_helpers import person_auth
from tests.support.gateway_helpers import PUBLIC_URL, settings_for
from tests.support.twilio_server import TwilioStandIn


def actor_pool(spine: Spine) -> HostPool:
    """Real PersonActors (offline model, in-process Dispatcher) behind the pool's interface."""
    host = real_host(spine, time.time, owner_id("t", host_name(0)))  # type: ignore[arg-type]
    return HostPool(RuntimeConfig(namespace="t"), [InProcess(host)], None, spine)


def console_app(spine: Spine, *, idle_release_s: float = 1800.0, twilio: TwilioStandIn | None = None,
                **settings) -> tuple[httpx.AsyncClient, GatewayContext]:
    context = GatewayContext(settings_for(spine, twilio, **settings), spine, actor_pool(spine),
                             takeover=TakeoverOptions(idle_release_s=idle_release_s))
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL)
    return client, context


async def escalation(spine: Spine, esc_id: str, property_id: str, *, person_id: str | None = "p_marcus",
                     minutes_ago: int = 0, urgency: str = "urgent", org_id: str = "org_propflow") -> Escalation:
    e = Escalation(id=esc_id, org_id=org_id, property_id=property_id, person_id=person_id, channel="sms",
                   interaction_id=f"ix_{esc_id}", reason=f"reason {esc_id}", urgency=urgency, summary="summary",
                   created_at=utcnow() - timedelta(minutes=minutes_ago))
    await spine.put_escalation(e)
    return e


async def staff(spine: Spine, *people: str) -> dict[str, dict[str, str]]:
    return {p: await person_auth(spine, p) for p in people}
