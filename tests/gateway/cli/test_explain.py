"""`gateway explain`: the routing decision and prompt anatomy for an inbound, as a dry run."""
from __future__ import annotations

import asyncio
import os
import sys

import pytest

from desk.portfolio.demo import seed
from spine.identity import ClaimKind
from spine.records import EventKind
from spine.repo import Spine
from spine.store.sqlite import SqliteStore

MAIN = "import sys; from gateway.cli import main; sys.exit(main())"


@pytest.fixture
async def store_url(tmp_path):
    path = tmp_path / "explain.db"
    spine = Spine(SqliteStore(path))
    await seed(spine)
    await spine.store.close()
    return f"sqlite:///{path}"


async def explain(store_url: str, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "GATEWAY_STORE": store_url, "GATEWAY_MODEL": "offline"}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", MAIN, "explain", *args, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    return proc.returncode, out.decode(), err.decode()


async def test_explain_a_tenant_shows_roles_layers_and_the_breakpoint(store_url):
    code, out, _ = await explain(store_url, "--from", "+12065551001", "--to", "+12065550100",
                                 "my toilet is overflowing!")
    assert code == 0, out
    assert "p_marcus (Marcus Johnson)" in out and "roles     tenant   confidence: fact" in out
    lines = out.splitlines()
    at = {name: i for i, line in enumerate(lines) for name in ("L0 identity", "tenant/rating", "role tool descriptions",
                                                                "CACHE BREAKPOINT", "personContext.summary",
                                                                "L1 breadcrumb") if name in line}
    assert at["L0 identity"] < at["tenant/rating"] < at["role tool descriptions"] < at["CACHE BREAKPOINT"] \
        < at["personContext.summary"] < at["L1 breadcrumb"]
    assert "create_work_order" in out and "+12065551001" not in out and "…1001" in out


async def test_explain_an_unknown_prospect_mints_nothing(store_url):
    code, out, _ = await explain(store_url, "--from", "+14155559876", "--to", "+12065550100",
                                 "do you have 2BR units next month?")
    assert code == 0, out
    assert "roles     prospect   confidence: inferred" in out and "intent    availability" in out
    assert "would_mint_prospect" in out and "prospect/discovery" in out and "schedule_tour" in out
    spine = Spine(SqliteStore(store_url[len("sqlite:///"):]))
    try:
        assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155559876") is None
        assert await spine.events(EventKind.GRACEFUL_DEGRADE) == []
    finally:
        await spine.store.close()


async def test_explain_other_callers_and_bad_input(store_url):
    code, out, _ = await explain(store_url, "--from", "+13105557777", "--to", "+12065550100", "yo what's up Trevor")
    assert code == 0 and "'random caller'   spine_category: wrong_number" in out
    assert "no_person_resolved_no_intent_hints" in out and "other/light_triage" in out
    code, out, _ = await explain(store_url, "--from", "+13035551500", "--to", "+13035550200", "on my way")
    assert code == 0 and "person_resolved_no_roles" in out and "Capitol Flats" in out
    code, out, _ = await explain(store_url, "--from", "+18885550199", "--to", "+12065550100", "win big")
    assert code == 0 and "SUPPRESSED" in out
    code, out, _ = await explain(store_url, "--from", "garbage", "--to", "+12065550100", "hi")
    assert code == 0 and "unreadable wire address" in out
    code, _, err = await explain(store_url, "--from", "+12065551001", "--to", "+19995550000", "hi")
    assert code == 2 and "no property answers +19995550000" in err
