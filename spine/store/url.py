"""GATEWAY_STORE URLs: `sqlite:///path/to.db` or `dynamodb://table?endpoint_url=...&region=...`."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from spine.store.base import Store, StoreError

DEFAULT_STORE_URL = "sqlite:///var/clara.db"


def open_store(url: str = DEFAULT_STORE_URL, *, timeout_s: float = 5.0) -> Store:
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        # sqlite:///relative/path and sqlite:////absolute/path, as SQLAlchemy spells them.
        path = url[len("sqlite:///"):] or ":memory:"
        from spine.store.sqlite import SqliteStore

        return SqliteStore(path, timeout_s=timeout_s)
    if parsed.scheme == "dynamodb":
        params = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        from spine.store.dynamodb import DynamoStore

        return DynamoStore(
            table=parsed.netloc or parsed.path.lstrip("/"),
            endpoint_url=params.get("endpoint_url"),
            region=params.get("region", "us-east-1"),
            timeout_s=timeout_s,
        )
    raise StoreError(f"unsupported GATEWAY_STORE url {url!r}: use sqlite:///path or dynamodb://table?...")
