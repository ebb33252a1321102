"""`gateway oncall set|show|clear`: a plan written, shown with masked numbers, validated, cleared."""
from __future__ import annotations

import asyncio

import pytest

from desk.portfolio.demo import seed
from gateway.cli import main
from spine.repo import Spine
from spine.store.sqlite import SqliteStore


@pytest.fixture
def store_url(tmp_path, monkeypatch) -> str:
    path = tmp_path / "clara.db"

    async def _seed() -> None:
        spine = Spine(SqliteStore(path))
        await seed(spine)
        await spine.store.close()

    asyncio.run(_seed())
    url = f"sqlite:///{path}"
    monkeypatch.setenv("GATEWAY_STORE", url)
    return url


def test_show_lists_the_demo_plan_with_masked_numbers(store_url, capsys):
    assert main(["oncall", "show", "pf_yale"]) == 0
    out = capsys.readouterr().out
    assert "level 1: Mike Torres (p_mike, …1500)" in out and "level 2: Priya Shah (p_priya, …0150)" in out
    assert "ack timeout: 300 s" in out and "repeats: 2" in out and "+1303" not in out


def test_set_replaces_the_plan_and_clear_removes_it(store_url, capsys):
    assert main(["oncall", "set", "pf_yale", "--level", "p_carlos,p_mike", "--level", "p_priya",
                 "--ack-timeout", "60", "--repeats", "0"]) == 0
    capsys.readouterr()
    assert main(["oncall", "show", "pf_yale"]) == 0
    out = capsys.readouterr().out
    assert "level 1: Carlos Reyes (p_carlos, …2020), Mike Torres (p_mike, …1500)" in out
    assert "level 2: Priya Shah" in out and "ack timeout: 60 s" in out and "repeats: 0" in out
    assert main(["oncall", "clear", "pf_yale"]) == 0
    assert main(["oncall", "show", "pf_yale"]) == 1
    assert "no on-call plan" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--level", "p_nobody"], "no such person"),
    (["--level", "p_ruth"], "p_ruth is deceased"),
    # Issue 40 item 10: levels are staff or vendor contacts of the property, active there.
    (["--level", "p_marcus"], "p_marcus is neither staff nor a vendor contact of pf_yale"),  # a tenant
    (["--level", "p_mike", "--level", "p_sam"], "p_sam is neither staff"),  # a viewer never acts
    (["--level", "p_spam"], "p_spam is merged into another person or marked spam"),
    (["--level", "p_mike", "--ack-timeout", "4"], "ack_timeout_s"),
    (["--level", "p_mike", "--repeats", "10"], "repeats"),
    (["--level", ","], "every level names at least one person"),
])
def test_set_refuses_a_bad_plan_and_keeps_the_old_one(store_url, capsys, args, message):
    assert main(["oncall", "set", "pf_yale", *args]) == 2
    assert message in capsys.readouterr().err
    assert main(["oncall", "show", "pf_yale"]) == 0
    assert "level 1: Mike Torres" in capsys.readouterr().out


@pytest.mark.parametrize("property_id, person_id", [("pf_capitol", "p_priya"), ("pf_capitol", "p_mike"),
                                                    ("pf_yale", "p_nora")])
def test_set_refuses_staff_and_vendors_of_other_properties(store_url, capsys, property_id, person_id):
    # Priya's org is not Capitol's, Mike's vendor does not serve Capitol, Nora is pm of Beacon only.
    assert main(["oncall", "set", property_id, "--level", person_id]) == 2
    assert f"{person_id} is neither staff nor a vendor contact of {property_id}" in capsys.readouterr().err


def test_set_refuses_an_unknown_property(store_url, capsys):
    assert main(["oncall", "set", "pf_atlantis", "--level", "p_mike"]) == 2
    assert "no property" in capsys.readouterr().err
