"""`gateway seed`: load the demo data (idempotent)."""
from __future__ import annotations

from desk.portfolio.demo import seed
from gateway.cli.common import open_spine_for_writing
from gateway.settings import Settings


def register(sub) -> None:
    p = sub.add_parser("seed", help="load the demo people, properties and work orders (idempotent)")
    p.set_defaults(func=run)


async def run(args) -> int:
    settings = Settings.from_env()
    spine = await open_spine_for_writing(settings)
    try:
        await seed(spine)
    finally:
        await spine.store.close()
    print(f"seeded demo data into {settings.store_url}")
    return 0
