"""DynamoDB backend through aioboto3: for deployments that outgrow one node.

Single-table design: every item sits at (pk, sk); one sparse global secondary index "gsi1"
on (gsi1pk, gsi1sk) holds only items that name an index key. Item data is a Binary attribute
of msgpack bytes beside a numeric `version`, which the conditional writes compare.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any, TypeVar

import aioboto3
import aiohttp
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, ParamValidationError

from spine.store.base import ABSENT, ConditionFailed, Item, StoreError, StoreUnavailable, bounded
from spine.store.codec import check_keys, pack_data, unpack_data

T = TypeVar("T")

INDEX_NAME = "gsi1"
# Creating a table on real DynamoDB takes seconds; on moto it is immediate.
TABLE_ACTIVE_WAIT_S = 60.0
# The service's limits per call: BatchGetItem 100 keys, BatchWriteItem 25 writes.
BATCH_GET, BATCH_WRITE = 100, 25
UNPROCESSED_PAUSE_S = 0.05

# Error codes that mean "the service cannot take this right now", not "the request is wrong".
_UNAVAILABLE_CODES = frozenset({
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "InternalServerError", "ServiceUnavailable", "InternalFailure", "UnrecognizedClientException",
})

_S = "S"

_sessions = threading.local()


def _session() -> aioboto3.Session:
    """One session per thread, shared by its stores: a session caches the service model (a new
    one costs ~0.2 s per client) and botocore sessions are not safe to share across threads."""
    session = getattr(_sessions, "session", None)
    if session is None:
        session = _sessions.session = aioboto3.Session()
    return session


def _key(pk: str, sk: str) -> dict[str, dict[str, str]]:
    return {"pk": {_S: pk}, "sk": {_S: sk}}


def _to_item(attrs: dict[str, Any]) -> Item:
    return Item(
        pk=attrs["pk"][_S], sk=attrs["sk"][_S], data=unpack_data(attrs["data"]["B"]),
        version=int(attrs["version"]["N"]),
        gsi1pk=attrs.get("gsi1pk", {}).get(_S), gsi1sk=attrs.get("gsi1sk", {}).get(_S),
    )


def _full_attrs(item: Item, blob: bytes, version: int) -> dict[str, Any]:
    attrs: dict[str, Any] = {**_key(item.pk, item.sk), "data": {"B": blob}, "version": {"N": str(version)}}
    # Sparse index: an item without an index key carries no gsi1 attributes at all.
    for name in ("gsi1pk", "gsi1sk"):
        value = getattr(item, name)
        if value is not None:
            attrs[name] = {_S: value}
    return attrs


class DynamoStore:
    """The Store protocol on one DynamoDB table. The client opens lazily on first use and stays
    open until close(). The table must exist (`gateway dynamodb create-table`, or
    `create_missing=True`, which tests use, creates it on first use; PAY_PER_REQUEST)."""

    def __init__(self, table: str, endpoint_url: str | None = None, region: str = "us-east-1",
                 timeout_s: float = 5.0, *, create_missing: bool = False) -> None:
        self.table = table
        self.create_missing = create_missing
        self.endpoint_url = endpoint_url
        self.region = region
        self.timeout_s = timeout_s
        self._where = f"table {table!r} at {endpoint_url or f'AWS {region}'}"
        self._config = Config(
            connect_timeout=timeout_s, read_timeout=timeout_s,
            retries={"max_attempts": 2, "mode": "standard"}, max_pool_connections=50,
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None
        self._stack: AsyncExitStack | None = None
        self._client: Any = None
        self._table_ready = False

    # -- connection and table -----------------------------------------------------------
    async def _ready(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            # An aiohttp session belongs to the loop that opened it; a store handed to another
            # loop opens its own client there (the old one dies with its loop).
            self._loop, self._lock, self._stack, self._client = loop, asyncio.Lock(), None, None
        if self._client is None:
            assert self._lock is not None
            async with self._lock:
                if self._client is None:
                    await self._open()
        return self._client

    async def _open(self) -> None:
        stack = AsyncExitStack()
        try:
            client = await stack.enter_async_context(_session().client(
                "dynamodb", endpoint_url=self.endpoint_url, region_name=self.region, config=self._config))
            if not self._table_ready:
                await self._check_table(client, create=self.create_missing)
                self._table_ready = True
        except BaseException:
            await stack.aclose()
            raise
        self._stack, self._client = stack, client

    async def ensure_table(self) -> None:
        """Create the table if it does not exist yet and wait until it is ACTIVE."""
        self.create_missing = True
        with self._errors("ensure_table"):
            await self._ready()

    async def _check_table(self, client: Any, *, create: bool) -> None:
        try:
            desc = await self._bound("describe_table", client.describe_table(TableName=self.table))
            status = desc["Table"]["TableStatus"]
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ResourceNotFoundException":
                raise
            if not create:
                raise StoreUnavailable(f"no DynamoDB {self._where} (create it with "
                                       "`gateway dynamodb create-table`)") from exc
            try:
                await self._bound("create_table", client.create_table(**self._table_spec()))
            except ClientError as race:
                if race.response["Error"]["Code"] != "ResourceInUseException":
                    raise  # ResourceInUse: another process created it first, which is fine
            status = "CREATING"
        if status != "ACTIVE":
            await bounded(self._wait_active(client), TABLE_ACTIVE_WAIT_S, f"dynamodb create {self._where}")

    async def _wait_active(self, client: Any) -> None:
        while True:
            desc = await self._bound("describe_table", client.describe_table(TableName=self.table))
            if desc["Table"]["TableStatus"] == "ACTIVE":
                return
            await asyncio.sleep(0.5)

    def _table_spec(self) -> dict[str, Any]:
        def schema(hash_key: str, range_key: str) -> list[dict[str, str]]:
            return [{"AttributeName": hash_key, "KeyType": "HASH"}, {"AttributeName": range_key, "KeyType": "RANGE"}]

        return {
            "TableName": self.table,
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "gsi1pk", "gsi1sk")],
            "KeySchema": schema("pk", "sk"),
            "GlobalSecondaryIndexes": [
                {"IndexName": INDEX_NAME, "KeySchema": schema("gsi1pk", "gsi1sk"), "Projection": {"ProjectionType": "ALL"}},
            ],
            "BillingMode": "PAY_PER_REQUEST",
        }

    # -- error mapping and bounds -------------------------------------------------------
    def _bound(self, what: str, op: Awaitable[T]) -> Awaitable[T]:
        return bounded(op, self.timeout_s, f"dynamodb {what} on {self._where}")

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """botocore's exceptions become the store's: the caller sees one error vocabulary."""
        try:
            yield
        except ClientError as exc:
            error = exc.response.get("Error", {})
            code, message = error.get("Code", "?"), error.get("Message", str(exc))
            if code == "ConditionalCheckFailedException":
                raise ConditionFailed(f"dynamodb {what}: condition failed on {self._where}") from exc
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            if code in _UNAVAILABLE_CODES or status >= 500:
                raise StoreUnavailable(f"dynamodb {what} on {self._where} unavailable: {code}: {message}") from exc
            raise StoreError(f"dynamodb {what} on {self._where} failed: {code}: {message}") from exc
        except NoCredentialsError as exc:
            raise StoreUnavailable(f"dynamodb {what} on {self._where}: no AWS credentials (set AWS_ACCESS_KEY_ID "
                                   "and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE; against moto any values do)") from exc
        except ParamValidationError as exc:
            raise StoreError(f"dynamodb {what} on {self._where}: invalid request: {exc}") from exc
        except (BotoCoreError, aiohttp.ClientError, OSError) as exc:
            # EndpointConnectionError, connect/read timeouts, closed connections, no credentials.
            raise StoreUnavailable(f"dynamodb {what}: cannot reach {self._where}: {exc}") from exc

    async def _run(self, what: str, op: Callable[[Any], Awaitable[T]]) -> T:
        with self._errors(what):
            client = await self._ready()
            return await self._bound(what, op(client))

    # -- the Store protocol -------------------------------------------------------------
    async def get(self, pk: str, sk: str = "_") -> Item | None:
        async def op(client: Any) -> Item | None:
            resp = await client.get_item(TableName=self.table, Key=_key(pk, sk), ConsistentRead=True)
            return _to_item(resp["Item"]) if "Item" in resp else None

        return await self._run("get", op)

    async def query(self, pk: str, sk_prefix: str = "", *, limit: int | None = None,
                    descending: bool = False) -> list[Item]:
        return await self._query(None, ("pk", "sk"), pk, sk_prefix, limit, descending)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", *, limit: int | None = None,
                          descending: bool = False) -> list[Item]:
        return await self._query(INDEX_NAME, ("gsi1pk", "gsi1sk"), gsi1pk, sk_prefix, limit, descending)

    async def _query(self, index: str | None, names: tuple[str, str], key: str, prefix: str,
                     limit: int | None, descending: bool) -> list[Item]:
        if limit is not None and limit <= 0:
            return []
        condition = "#k = :k"
        params: dict[str, Any] = {
            "TableName": self.table, "ScanIndexForward": not descending,
            "ExpressionAttributeNames": {"#k": names[0]}, "ExpressionAttributeValues": {":k": {_S: key}},
        }
        if prefix:  # begins_with rejects an empty operand
            condition += " AND begins_with(#s, :p)"
            params["ExpressionAttributeNames"]["#s"] = names[1]
            params["ExpressionAttributeValues"][":p"] = {_S: prefix}
        params["KeyConditionExpression"] = condition
        if index:
            params["IndexName"] = index
        else:
            params["ConsistentRead"] = True  # global indexes only read eventually consistent

        async def op(client: Any) -> list[Item]:
            found: list[Item] = []
            while True:
                if limit is not None:
                    params["Limit"] = limit - len(found)
                resp = await client.query(**params)
                found += [_to_item(a) for a in resp.get("Items", [])]
                last = resp.get("LastEvaluatedKey")
                if not last or (limit is not None and len(found) >= limit):
                    return found
                params["ExclusiveStartKey"] = last

        return await self._run("query", op)

    async def put(self, item: Item, *, expect_version: int | None = None) -> Item:
        check_keys(item)
        blob = pack_data(item.data, f"({item.pk}, {item.sk})")
        if expect_version is None:
            return await self._run("put", lambda client: self._put_unconditional(client, item, blob))

        async def op(client: Any) -> Item:
            if expect_version == ABSENT:
                version, cond, names, values = 1, "attribute_not_exists(pk)", {}, {}
            else:
                version, cond = expect_version + 1, "#v = :expected"
                names, values = {"#v": "version"}, {":expected": {"N": str(expect_version)}}
            extra = {"ExpressionAttributeNames": names, "ExpressionAttributeValues": values} if names else {}
            await client.put_item(TableName=self.table, Item=_full_attrs(item, blob, version),
                                  ConditionExpression=cond, **extra)
            return item.model_copy(update={"version": version})

        return await self._run("put", op)

    async def _put_unconditional(self, client: Any, item: Item, blob: bytes) -> Item:
        """One UpdateItem: replace data and index keys, bump the version server-side (no read)."""
        names = {"#d": "data", "#v": "version", "#g1": "gsi1pk", "#g2": "gsi1sk"}
        values: dict[str, Any] = {":d": {"B": blob}, ":one": {"N": "1"}}
        sets, removes = ["#d = :d"], []
        for alias, value in (("#g1", item.gsi1pk), ("#g2", item.gsi1sk)):
            if value is None:
                removes.append(alias)
            else:
                values[f":{alias[1:]}"] = {_S: value}
                sets.append(f"{alias} = :{alias[1:]}")
        expression = "SET " + ", ".join(sets) + " ADD #v :one" + (" REMOVE " + ", ".join(removes) if removes else "")
        resp = await client.update_item(
            TableName=self.table, Key=_key(item.pk, item.sk), UpdateExpression=expression,
            ExpressionAttributeNames=names, ExpressionAttributeValues=values, ReturnValues="UPDATED_NEW",
        )
        return item.model_copy(update={"version": int(resp["Attributes"]["version"]["N"])})

    async def get_many(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Item]:
        wanted = list(dict.fromkeys(keys))
        found: dict[tuple[str, str], Item] = {}
        for start in range(0, len(wanted), BATCH_GET):
            request = {self.table: {"Keys": [_key(pk, sk) for pk, sk in wanted[start:start + BATCH_GET]],
                                    "ConsistentRead": True}}

            async def op(client: Any, request: dict[str, Any] = request) -> list[Item]:
                got: list[Item] = []
                pending = request
                while pending:
                    resp = await client.batch_get_item(RequestItems=pending)
                    got += [_to_item(a) for a in resp.get("Responses", {}).get(self.table, [])]
                    pending = resp.get("UnprocessedKeys") or {}
                    if pending:
                        await asyncio.sleep(UNPROCESSED_PAUSE_S)
                return got

            found.update({(i.pk, i.sk): i for i in await self._run("batch_get", op)})
        return found

    async def put_many(self, items: list[Item]) -> None:
        latest: dict[tuple[str, str], dict[str, Any]] = {}  # one batch may not name a key twice: the last wins
        for item in items:
            check_keys(item)
            blob = pack_data(item.data, f"({item.pk}, {item.sk})")
            latest[(item.pk, item.sk)] = {"PutRequest": {"Item": _full_attrs(item, blob, item.version + 1)}}
        requests = list(latest.values())
        for start in range(0, len(requests), BATCH_WRITE):
            chunk = requests[start:start + BATCH_WRITE]

            async def op(client: Any, chunk: list[dict[str, Any]] = chunk) -> None:
                pending: dict[str, Any] = {self.table: chunk}
                while pending:
                    resp = await client.batch_write_item(RequestItems=pending)
                    pending = resp.get("UnprocessedItems") or {}
                    if pending:  # throttled: the rest goes again after a pause, as AWS advises
                        await asyncio.sleep(UNPROCESSED_PAUSE_S)

            await self._run("batch_write", op)

    async def delete(self, pk: str, sk: str = "_") -> None:
        await self._run("delete", lambda client: client.delete_item(TableName=self.table, Key=_key(pk, sk)))

    async def close(self) -> None:
        stack, self._stack, self._client = self._stack, None, None
        if stack is not None:
            await stack.aclose()
