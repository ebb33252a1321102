"""The gateway's Buildium settings for a test, and webhook deliveries signed as Buildium signs them."""
from __future__ import annotations

import json
import time

from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub, sign_webhook

WEBHOOK_SECRET = "buildium-webhook-test-secret"
ALDER = "+12065550900"  # the gateway's number for rental 101 (gateway buildium link)
ORG = "org_buildium"


def buildium_settings(stub: BuildiumStub) -> dict[str, str]:
    return dict(buildium_client_id=CLIENT_ID, buildium_client_secret=CLIENT_SECRET, buildium_api_base=stub.url,
                buildium_webhook_secret=WEBHOOK_SECRET)


def signed(event: dict, *, secret: str = WEBHOOK_SECRET, at: float | None = None) -> tuple[bytes, dict[str, str]]:
    """A delivery as Buildium sends it: compact JSON, its timestamp and signature headers."""
    body = json.dumps(event, separators=(",", ":")).encode()
    stamp = str(int(at if at is not None else time.time()))
    return body, {"buildium-webhook-timestamp": stamp, "buildium-webhook-signature": sign_webhook(secret, stamp, body),
                  "Content-Type": "application/json"}
