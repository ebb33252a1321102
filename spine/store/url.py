"""GATEWAY_STORE URLs, parsed once, meaning exactly what they say.

    sqlite:///var/clara.db          relative to the working directory (three slashes)
    sqlite:////srv/clara/clara.db   absolute (four slashes: the third starts the path)
    sqlite:///:memory:              in memory (tests)
    dynamodb://clara?region=us-east-1[&endpoint_url=http://127.0.0.1:5000]

A SQLite store's folder must exist (nothing is created but the database file itself), and a
read-only open never creates a database. Anything else is a one-line StoreError.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlparse

from pydantic import BaseModel

from spine.store.base import Store, StoreError

DEFAULT_STORE_URL = "sqlite:///var/clara.db"
MEMORY = ":memory:"
_FORMS = "use sqlite:///relative/path.db, sqlite:////absolute/path.db or dynamodb://table?region=..."


class StoreLocation(BaseModel):
    kind: Literal["sqlite", "dynamodb"]
    path: str = ""  # sqlite: as written (relative to the working directory) or ":memory:"
    table: str = ""
    endpoint_url: str | None = None
    region: str = "us-east-1"

    def describe(self) -> str:
        if self.kind == "sqlite":
            return "sqlite in memory" if self.path == MEMORY else f"sqlite {Path(self.path).resolve()}"
        return f"dynamodb table {self.table!r} at {self.endpoint_url or f'AWS {self.region}'}"


def parse_store_url(url: str) -> StoreLocation:
    """The store a GATEWAY_STORE URL names, or a StoreError saying what is wrong with it."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        if not url.startswith("sqlite:///"):
            raise StoreError(f"GATEWAY_STORE {url!r}: a sqlite URL has three slashes before a relative "
                             f"path and four before an absolute one ({_FORMS})")
        path = url[len("sqlite:///"):]
        if not path or path.endswith("/"):
            raise StoreError(f"GATEWAY_STORE {url!r} names no database file ({_FORMS})")
        return StoreLocation(kind="sqlite", path=path)
    if parsed.scheme == "dynamodb":
        table = parsed.netloc or parsed.path.lstrip("/")
        if not table:
            raise StoreError(f"GATEWAY_STORE {url!r} names no table ({_FORMS})")
        params = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        unknown = sorted(set(params) - {"endpoint_url", "region"})
        if unknown:
            raise StoreError(f"GATEWAY_STORE {url!r}: unknown parameter(s) {', '.join(unknown)} "
                             "(known: endpoint_url, region)")
        return StoreLocation(kind="dynamodb", table=table, endpoint_url=params.get("endpoint_url"),
                             region=params.get("region", "us-east-1"))
    raise StoreError(f"unsupported GATEWAY_STORE {url!r}: {_FORMS}")


def open_store(url: str = DEFAULT_STORE_URL, *, timeout_s: float = 5.0, read_only: bool = False) -> Store:
    """Open the store a URL names. `read_only` (inspection commands) never creates a database."""
    where = parse_store_url(url)
    if where.kind == "sqlite":
        from spine.store.sqlite import SqliteStore

        return SqliteStore(where.path, timeout_s=timeout_s, read_only=read_only)
    from spine.store.dynamodb import DynamoStore

    return DynamoStore(table=where.table, endpoint_url=where.endpoint_url, region=where.region, timeout_s=timeout_s)
