"""`gateway admin-token PERSON_ID` issues a staff person's admin token, stored only as its hash;
`--revoke` ends it. Run in-process through the console script's own entry point."""
from __future__ import annotations

import asyncio

import pytest

from gateway.cli import main
from spine.repo import Spine
from spine.store import open_store


@pytest.fixture
def store_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'clara.db'}"
    monkeypatch.setenv("GATEWAY_STORE", url)
    assert main(["seed"]) == 0
    return url


def _token_record(url: str, token: str):
    async def read():
        spine = Spine(open_store(url))
        try:
            return await spine.admin_token(token)
        finally:
            await spine.store.close()
    return asyncio.run(read())


def test_issue_then_revoke(store_url, tmp_path, capsys):
    capsys.readouterr()
    assert main(["admin-token", "p_priya", "--days", "7"]) == 0
    token = capsys.readouterr().out.strip()
    record = _token_record(store_url, token)
    assert record is not None and record.person_id == "p_priya" and record.usable()
    assert (record.expires_at - record.created_at).days == 7
    assert token.encode() not in (tmp_path / "clara.db").read_bytes()  # only the hash is stored
    assert main(["admin-token", "p_priya", "--revoke"]) == 0
    assert "revoked 1" in capsys.readouterr().out
    assert not _token_record(store_url, token).usable()


@pytest.mark.parametrize("person", ["p_marcus", "p_ruth", "p_nobody"])
def test_only_staff_get_a_token(store_url, capsys, person):
    assert main(["admin-token", person]) == 1
    assert "only staff" in capsys.readouterr().err
