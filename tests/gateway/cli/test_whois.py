"""`gateway whois`, run as a user runs it: its own process, GATEWAY_STORE at a seeded SQLite file.

The invocations are independent processes, so the module runs them all at once and each test
reads its own result (a process start costs about a second here)."""
from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from tests.support.cli_helpers import run_gateway

QUERIES = {  # name: (phone, property, store)
    "marcus": ("(206) 555-1001", "pf_yale", "seeded"),
    "carlos_yale": ("+1 303-555-2020", "pf_yale", "seeded"),
    "carlos_capitol": ("303.555.2020", "pf_capitol", "seeded"),
    "marcus_old": ("+12065551088", "pf_yale", "seeded"),
    "bad_text": ("not-a-phone", "pf_yale", "seeded"),
    "no_property": ("+12065551001", "pf_atlantis", "seeded"),
    "store_down": ("+12065551001", "pf_yale", "down"),
}


@dataclass
class Whois:
    code: int
    out: str
    err: str

    def role_lines(self) -> list[str]:
        return [" ".join(line.split()) for line in self.out.splitlines() if line.startswith("    ")]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def down_port() -> int:
    return _closed_port()


@pytest.fixture(scope="module")
def results(tmp_path_factory, moto_server, down_port) -> dict[str, Whois]:
    seeded = f"sqlite:///{tmp_path_factory.mktemp('whois') / 'clara.db'}"
    done = run_gateway("seed", store_url=seeded)
    assert done.returncode == 0, done.stderr
    urls = {"seeded": seeded, "down": f"dynamodb://clara?endpoint_url=http://127.0.0.1:{down_port}&region=us-east-1"}

    def whois(phone: str, property_id: str, store: str) -> Whois:
        done = run_gateway("whois", phone, "--property", property_id, store_url=urls[store])
        return Whois(done.returncode, done.stdout, done.stderr)

    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(whois, *query) for name, query in QUERIES.items()}
    found = {name: f.result() for name, f in futures.items()}
    for name, r in found.items():
        assert "Traceback" not in r.err, f"{name}: {r.err}"
    return found


def test_marcus_is_tenant_of_unit_204(results):
    r = results["marcus"]
    assert r.code == 0
    assert r.out.splitlines()[0] == "+12065551001 -> p_marcus (Marcus Johnson)"
    assert r.role_lines() == ["tenant unit 204 (primary) [source pms_sync]"]


def test_carlos_is_tenant_and_vendor_at_yale(results):
    r = results["carlos_yale"]
    assert r.code == 0 and "p_carlos (Carlos Reyes)" in r.out
    assert sorted(r.role_lines()) == ["tenant unit 110 (primary) [source pms_sync]",
                                      "vendor_contact Carlos Plumbing (v_carlos) [source pms_sync]"]


def test_carlos_is_vendor_only_at_capitol(results):
    r = results["carlos_capitol"]
    assert r.code == 0 and "active roles at pf_capitol (Capitol Flats)" in r.out
    assert r.role_lines() == ["vendor_contact Carlos Plumbing (v_carlos) [source pms_sync]"]


def test_marcus_old_number_resolves_to_marcus(results):
    r = results["marcus_old"]
    assert r.code == 0
    assert r.out.splitlines()[0] == "+12065551088 -> p_marcus (Marcus Johnson), merged from p_marcus_old"
    assert r.role_lines() == ["tenant unit 204 (primary) [source pms_sync]"]


def test_an_invalid_phone_is_a_clear_error_with_exit_2(results):
    r = results["bad_text"]
    assert r.code == 2 and r.out == ""
    assert r.err == "error: phone number may hold only digits, spaces, ( ) . - and a leading +: 'not-a-phone'\n"


def test_an_unknown_property_is_a_clear_error_with_exit_2(results):
    r = results["no_property"]
    assert r.code == 2 and "no property 'pf_atlantis'" in r.err


def test_an_unreachable_store_is_a_clear_error_with_exit_1(results, down_port):
    r = results["store_down"]
    assert r.code == 1 and r.err.startswith("error: store unavailable") and f"127.0.0.1:{down_port}" in r.err
