"""ImportRecord: what one source row became, kept in the store under (source, file kind, external id).

It is how a second import knows a row (its internal id is stable: the one written the first time),
whether it changed (the row's cells as last imported), which store items it owns (to update or end
them), and what `gateway export` writes back."""
from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

import spine.keys as keys
from spine.errors import SpineError
from spine.identity import utcnow
from spine.store.base import Item, Store

_SOURCE = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class InvalidSource(SpineError, ValueError):
    """A --source name that cannot be part of an internal id."""


def check_source(source: str) -> str:
    if not _SOURCE.match(source):
        raise InvalidSource(f"source {source!r}: lower-case letters, digits and '-', at most 32 (e.g. pms, appfolio)")
    return source


def internal_id(prefix: str, source: str, external_id: str) -> str:
    """`p_pms_1042`: stable for (source, external id), and never the same for two of them (a source
    has no '_'; an external id that is not a plain word is spelled by its digest, after '~')."""
    tail = external_id if _SAFE_ID.match(external_id) else "~" + hashlib.sha256(external_id.encode()).hexdigest()[:20]
    return f"{prefix}_{source}_{tail}"


class ImportRecord(BaseModel):
    source: str
    kind: str
    external_id: str
    internal_id: str
    cells: dict[str, str]  # the row as last imported, in its normalised spelling
    digest: str = ""  # of the row as read (desk.portfolio.files.digest): equal means unchanged, unparsed
    item_keys: list[tuple[str, str]] = Field(default_factory=list)  # the (pk, sk) of the store items it owns
    ended: bool = False  # --sync or a past move-out ended what it made
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    def item(self) -> Item:
        return Item.model_construct(pk=keys.import_rows(self.source, self.kind, bucket(self.external_id)),
                                    sk=keys.import_row(self.external_id), data=self.model_dump(mode="json"),
                                    version=0, gsi1pk=None, gsi1sk=None)


def bucket(external_id: str) -> int:
    return hashlib.blake2b(external_id.encode(), digest_size=2).digest()[0] % keys.IMPORT_BUCKETS


async def records_of(store: Store, source: str, kind: str) -> dict[str, ImportRecord]:
    """Every row `source` imported of one file kind, by external id: one query per bucket, one after
    the other (each within the store's bound; moto, which scans its table per query, needs that)."""
    items: list[Item] = []
    for n in range(keys.IMPORT_BUCKETS):
        items += await store.query(keys.import_rows(source, kind, n), keys.import_row(""))
    return records_from(items)


def records_from(items: list[Item]) -> dict[str, ImportRecord]:
    records = [_stored(i.data) for i in items]
    return {r.external_id: r for r in records}


def _stored(data: dict[str, Any]) -> ImportRecord:
    """A record as this module wrote it, without validating it again (a second import reads every
    row's record, and validation was most of that); its tuples and times restored by hand."""
    return ImportRecord.model_construct(
        **{**data, "item_keys": [(pk, sk) for pk, sk in data["item_keys"]],
           "created_at": datetime.fromisoformat(data["created_at"]),
           "updated_at": datetime.fromisoformat(data["updated_at"])})
