"""`gateway dynamodb create-table`: create the DynamoDB table GATEWAY_STORE names (idempotent).

The gateway never creates its production table on its own: a typo in GATEWAY_STORE should
fail, not start an empty table. The table's keys and index are in spine.store.dynamodb.
"""
from __future__ import annotations

from gateway.settings import Settings
from spine.store.url import open_store, parse_store_url


def register(sub) -> None:
    p = sub.add_parser("dynamodb", help="DynamoDB store administration")
    actions = p.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create-table", help="create the table GATEWAY_STORE names (PAY_PER_REQUEST, gsi1)")
    create.set_defaults(func=create_table)


async def create_table(args) -> int:
    from spine.store.dynamodb import DynamoStore  # here: aioboto3 would cost every command's start-up

    settings = Settings.from_env()
    where = parse_store_url(settings.store_url)
    if where.kind != "dynamodb":
        print(f"error: GATEWAY_STORE is {settings.store_url!r}, not a dynamodb:// URL")
        return 2
    store = open_store(settings.store_url)
    assert isinstance(store, DynamoStore)
    try:
        await store.ensure_table()
    finally:
        await store.close()
    print(f"{where.describe()} is ACTIVE (keys pk/sk, index gsi1 on gsi1pk/gsi1sk)")
    return 0
