"""/healthz is liveness, /readyz is the store; with the store down, routes answer 503 with a
message (never a bare 500), and /healthz still answers."""
from __future__ import annotations

import socket

import httpx
import pytest

from gateway.app import create_app
from gateway.context import GatewayContext
from spine.repo import Spine
from spine.store.dynamodb import DynamoStore
from tests.support.gateway_helpers import ADMIN_TOKEN, AUTH_TOKEN, PUBLIC_URL, ScriptedPool, settings_for

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


async def test_ready_reports_the_store_model_and_channels_without_secrets(make_gateway):
    client, _ = await make_gateway(ScriptedPool())
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    body = ready.json()
    assert body == {"status": "ready", "store": "sqlite", "store_ok": True, "model": "offline",
                    "channels": {"sms": True, "voice": False, "email": False, "telegram": False}}
    assert AUTH_TOKEN not in ready.text and ADMIN_TOKEN not in ready.text


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def store_down(moto_server):
    """A gateway whose store (DynamoDB at a port nobody listens on) does not answer."""
    store = DynamoStore(table="down", endpoint_url=f"http://127.0.0.1:{_closed_port()}", timeout_s=0.5)
    spine = Spine(store)
    context = GatewayContext(settings_for(spine, None, store_url="dynamodb://down"), spine, ScriptedPool())
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL)
    yield client
    await client.aclose()
    await context.http.aclose()
    await store.close()


async def test_store_down_is_not_ready_but_alive(store_down):
    assert (await store_down.get("/healthz")).status_code == 200
    ready = await store_down.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["status"] == "unavailable" and ready.json()["store_ok"] is False
    assert "127.0.0.1" not in ready.text  # where the store lives is for the log, not for callers


async def test_admin_pages_answer_503_with_a_message_when_the_store_is_down(store_down):
    response = await store_down.get("/admin/traces", headers=ADMIN)
    assert response.status_code == 503
    assert "store is unavailable" in response.json()["error"]
    assert response.headers["retry-after"] == "5"
