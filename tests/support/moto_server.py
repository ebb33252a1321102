"""A local DynamoDB stand-in: moto's server on a free loopback port, speaking the real wire protocol.

Any test layer can get a DynamoDB-backed store from it. With the session fixture (registered for
every test in tests/conftest.py's pytest_plugins):

    async def test_x(moto_server):
        store = DynamoStore(table=f"t-{uuid4().hex[:8]}", endpoint_url=moto_server.endpoint_url,
                            create_missing=True)  # a fresh table, created on first use
        env = {"GATEWAY_STORE": moto_server.store_url()}   # for a `gateway` subprocess

The fixture keeps dummy AWS credentials in the environment for the whole session (botocore
signs every request and reads credentials when a client opens). Without pytest:
`server = start_moto_server()`, `with server.credentials(): ...`, `server.stop()`.
"""
from __future__ import annotations

import logging
import os
import threading
import urllib.request
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import BaseWSGIServer, make_server

REGION = "us-east-1"
# Dummy credentials: botocore signs every request, moto accepts any signature.
AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
}


@dataclass
class MotoServer:
    server: BaseWSGIServer
    thread: threading.Thread
    endpoint_url: str

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join()

    @contextmanager
    def credentials(self) -> Iterator[dict[str, str]]:
        """Set the dummy AWS credentials for the duration; the previous values come back after."""
        saved = {k: os.environ.get(k) for k in AWS_ENV}
        os.environ.update(AWS_ENV)
        try:
            yield dict(AWS_ENV)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def store_url(self, table: str | None = None) -> str:
        """A GATEWAY_STORE URL for a fresh table (`gateway seed` or `gateway dynamodb create-table`
        creates it)."""
        table = table or f"clara-{uuid.uuid4().hex[:12]}"
        return f"dynamodb://{table}?endpoint_url={self.endpoint_url}&region={REGION}"


def one_request_at_a_time(app: Any) -> Any:
    """moto's DynamoDB checks a write's condition and then writes, unlocked: on a threaded server two
    concurrent conditional creates of one item could both succeed, where DynamoDB lets exactly one
    win. Serving one request at a time restores that (moto answers each in milliseconds)."""
    lock = threading.Lock()

    def serial(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        with lock:
            return list(app(environ, start_response))

    return serial


def start_moto_server() -> MotoServer:
    """Start moto (its server application, as `moto_server` runs it) in a daemon thread on
    127.0.0.1 and a port the kernel picks (no races)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = one_request_at_a_time(DomainDispatcherApplication(create_backend_app))
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=MotoRequestHandler)
    thread = threading.Thread(target=server.serve_forever, name="moto", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    endpoint_url = f"http://{host}:{port}"
    _warm_up(endpoint_url)
    return MotoServer(server=server, thread=thread, endpoint_url=endpoint_url)


def _warm_up(endpoint_url: str) -> None:
    """moto builds its DynamoDB backend on the first request, seconds on a busy machine: pay that
    here, not inside the first test's store timeout. Any signature passes; the service is read
    from the credential scope."""
    request = urllib.request.Request(endpoint_url, data=b"{}", method="POST", headers={
        "X-Amz-Target": "DynamoDB_20120810.ListTables", "Content-Type": "application/x-amz-json-1.0",
        "Authorization": f"AWS4-HMAC-SHA256 Credential=testing/20260101/{REGION}/dynamodb/aws4_request, "
                         "SignedHeaders=host, Signature=0"})
    with urllib.request.urlopen(request, timeout=120) as response:
        response.read()


@pytest.fixture(scope="session")
def moto_server() -> Iterator[MotoServer]:
    """One moto server per test session, with dummy AWS credentials set while it runs."""
    server = start_moto_server()
    with server.credentials():
        yield server
    server.stop()
