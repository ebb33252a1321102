"""Fixtures for the tool layer: the seeded store plus the policy table's callers."""
from __future__ import annotations

import pytest

from spine.repo import Spine
from tests.support.tool_helpers import CALLERS, add_table_people
from tools.caller import Caller, load_caller


@pytest.fixture
async def callers(spine: Spine) -> dict[str, Caller]:
    await add_table_people(spine)
    return {name: await load_caller(spine, who.person_id, who.property_id, f"int-{name}")
            for name, who in CALLERS.items()}
