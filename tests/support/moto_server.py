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
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from moto.server import ThreadedMotoServer

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
    server: ThreadedMotoServer
    endpoint_url: str

    def stop(self) -> None:
        self.server.stop()

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


def start_moto_server() -> MotoServer:
    """Start moto in a daemon thread on 127.0.0.1 and a port the kernel picks (no races)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    return MotoServer(server=server, endpoint_url=f"http://{host}:{port}")


@pytest.fixture(scope="session")
def moto_server() -> Iterator[MotoServer]:
    """One moto server per test session, with dummy AWS credentials set while it runs."""
    server = start_moto_server()
    with server.credentials():
        yield server
    server.stop()
