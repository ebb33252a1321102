"""GATEWAY_STORE URLs do what they say: the documented SQLite forms, no folder ever created, a
read-only command never creates a database, DynamoDB without table or credentials is one line."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from spine.store import StoreError, StoreUnavailable
from spine.store.url import open_store, parse_store_url
from tests.support.cli_helpers import GATEWAY, run_gateway


def test_three_slashes_is_relative_four_is_absolute():
    assert parse_store_url("sqlite:///var/clara.db").path == "var/clara.db"
    assert parse_store_url("sqlite:////srv/clara/clara.db").path == "/srv/clara/clara.db"
    where = parse_store_url("dynamodb://clara?region=eu-west-1&endpoint_url=http://127.0.0.1:5000")
    assert (where.table, where.region, where.endpoint_url) == ("clara", "eu-west-1", "http://127.0.0.1:5000")


@pytest.mark.parametrize("url", ["sqlite:var/clara.db", "sqlite://var/clara.db", "sqlite:///", "sqlite:///var/",
                                 "mysql://db/clara", "dynamodb://", "dynamodb://clara?regin=eu-west-1"])
def test_a_malformed_url_is_an_error_not_a_surprise_path(url):
    with pytest.raises(StoreError) as info:
        parse_store_url(url)
    assert url in str(info.value) or "unknown parameter" in str(info.value)


async def test_a_missing_folder_is_an_error_and_is_not_created(tmp_path):
    with pytest.raises(StoreUnavailable, match="does not exist"):
        open_store(f"sqlite:///{tmp_path}/nonexistent/dir/x.db")
    assert not (tmp_path / "nonexistent").exists()


async def test_relative_paths_resolve_against_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "var").mkdir()
    store = open_store("sqlite:///var/clara.db")
    await store.close()
    assert (tmp_path / "var" / "clara.db").is_file()


async def test_read_only_never_creates_a_database(tmp_path):
    with pytest.raises(StoreUnavailable, match="gateway seed"):
        open_store(f"sqlite:///{tmp_path / 'clara.db'}", read_only=True)
    assert not (tmp_path / "clara.db").exists()


def test_whois_on_a_missing_database_says_so_and_creates_nothing(tmp_path):
    done = run_gateway("whois", "+12065551001", "--property", "pf_yale", store_url=f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: no sqlite database at") and "gateway seed" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


def test_whois_on_dynamodb_without_its_table_is_one_line(moto_server):
    done = run_gateway("whois", "+12065551001", "--property", "pf_yale", store_url=moto_server.store_url("absent"))
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert "no DynamoDB table 'absent'" in line and "gateway dynamodb create-table" in line


def test_dynamodb_without_credentials_is_one_line(tmp_path, moto_server):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(GATEWAY_STORE=moto_server.store_url("any"), AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"),
               AWS_CONFIG_FILE=str(tmp_path / "none"), AWS_EC2_METADATA_DISABLED="true")
    done = subprocess.run([str(GATEWAY), "seed"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert "no AWS credentials" in line and "moto" in line


def test_create_table_then_seed_on_dynamodb(moto_server):
    url = moto_server.store_url("made-by-cli")
    created = run_gateway("dynamodb", "create-table", store_url=url)
    assert created.returncode == 0 and "ACTIVE" in created.stdout, created.stderr
    again = run_gateway("dynamodb", "create-table", store_url=url)  # idempotent
    assert again.returncode == 0, again.stderr
    found = run_gateway("whois", "+12065551001", "--property", "pf_yale", store_url=url)
    assert found.returncode == 2 and "no property 'pf_yale'" in found.stderr  # the table is there, empty


def test_create_table_refuses_a_sqlite_store(tmp_path):
    done = run_gateway("dynamodb", "create-table", store_url=f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 2 and "not a dynamodb:// URL" in done.stdout
    assert not Path(tmp_path / "x.db").exists()
