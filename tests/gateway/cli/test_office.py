"""`gateway office set|show`: the demo office, an office written with its hours, bad input refused."""
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


def test_show_the_demo_office(store_url, capsys):
    assert main(["office", "show", "pf_yale"]) == 0
    out = capsys.readouterr().out
    assert "phone: …0190" in out and "mon-fri 09:00-17:00 (America/Los_Angeles)" in out and "+1206" not in out


def test_set_then_show(store_url, capsys):
    assert main(["office", "set", "pf_capitol", "--phone", "(303) 555-0299", "--hours", "mon-fri 10:00-17:00",
                 "--hours", "sat 10:00-14:00"]) == 0
    capsys.readouterr()
    assert main(["office", "show", "pf_capitol"]) == 0
    out = capsys.readouterr().out
    assert "…0299" in out and "mon-fri 10:00-17:00 (America/Denver)" in out and "sat 10:00-14:00" in out


@pytest.mark.parametrize("argv", [["--phone", "12"], ["--phone", "+13035550299", "--hours", "someday 9-5"],
                                  ["--phone", "+13035550299", "--hours", "mon 17:00-09:00"]])
def test_bad_input_is_refused(store_url, capsys, argv):
    assert main(["office", "set", "pf_capitol", *argv]) == 2
    assert "error:" in capsys.readouterr().err


def test_no_office(store_url, capsys):
    assert main(["office", "show", "pf_beacon"]) == 1
    assert "no office" in capsys.readouterr().out
