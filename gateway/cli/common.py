"""Helpers shared by CLI subcommands."""
from __future__ import annotations

import sys

from gateway.settings import Settings
from spine.repo import Spine
from spine.store import open_store


def open_spine(settings: Settings | None = None, *, read_only: bool = False) -> Spine:
    """The store GATEWAY_STORE names. Inspection commands pass `read_only`: they never create a
    database (a missing one is a one-line StoreError)."""
    settings = settings or Settings.from_env()
    return Spine(open_store(settings.store_url, read_only=read_only))


async def open_spine_for_writing(settings: Settings) -> Spine:
    """The store, created if it is not there yet (SQLite file, DynamoDB table): what seeding needs."""
    from spine.store.dynamodb import DynamoStore  # here: aioboto3 costs every command ~0.2 s to import

    spine = open_spine(settings)
    if isinstance(spine.store, DynamoStore):
        await spine.store.ensure_table()
    return spine


def fail(message: str, code: int = 2) -> int:
    """Say what went wrong on stderr (`error: ...`); the exit status (2: the command was used wrongly)."""
    print(f"error: {message}", file=sys.stderr)
    return code
