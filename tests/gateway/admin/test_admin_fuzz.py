"""Schemathesis over the admin JSON API (hardening 18), in CI and bounded in time: the schema is the
app's own (`app.openapi()`), the cases are generated from it and sent over real HTTP to the app
served in its own thread, as the operator, a viewer (Sam) and a property-scoped pm (Nora):
0 5xx, every response (errors included) matching its declared status, content type and schema,
no state changed by a viewer, and no record of a property outside a staff token's scope."""
from __future__ import annotations

import sqlite3
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.admin_app_server import ThreadedGateway
from tests.support.admin_helpers import AUTH

EXAMPLES = 15  # per operation and identity (bounded in time: the suite's budget is 5 minutes)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OUTSIDE_BEACON = ("pf_yale", "pf_capitol", "p_marcus", "p_carlos", "org_capitol")
# Rows a read may write: its own session and the events it logs; everything else is the product's state.
VOLATILE = ("EVENT", "EVENTS", "ADMINSESSION", "SESSION", "RATE")


def state(db_path) -> Counter[tuple[str, str, int]]:
    """The store's rows by (pk, sk, version), beside what reads may write."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT pk, sk, version FROM items").fetchall()
    return Counter(r for r in rows if not any(r[0].startswith(v) or r[1].startswith(v) for v in VOLATILE))


def fuzz(gateway: ThreadedGateway, headers: dict[str, str], *, no_outside_records: bool = False) -> int:
    """Every operation of the admin API, EXAMPLES cases each; the number of cases sent."""
    # The event stream never ends, so a case could not read its answer: tests/gateway/admin/test_console_stream.py.
    schema = schemathesis.openapi.from_dict(gateway.openapi).include(path_regex="^/admin/api/") \
        .exclude(path_regex="^/admin/api/stream$")
    sent = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def one(case) -> None:
            nonlocal sent
            sent += 1
            response = case.call(base_url=gateway.url, headers=headers, timeout=20)
            case.validate_response(response, checks=CHECKS)
            if no_outside_records and response.status_code < 300:
                leaked = [name for name in OUTSIDE_BEACON if name in response.text]
                assert not leaked, f"{case.method} {case.formatted_path}: {leaked} outside Nora's scope"

        one()
    return sent


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    with ThreadedGateway(tmp_path_factory.mktemp("fuzz") / "clara.db", staff=["p_sam", "p_nora"]) as served:
        yield served


def test_the_operator_gets_no_5xx_and_every_answer_as_declared(gateway):
    sent = fuzz(gateway, AUTH)
    print(f"\noperator: {sent} cases")
    assert sent > 100


def test_a_viewer_changes_nothing(gateway):
    before = state(gateway.db_path)
    sent = fuzz(gateway, gateway.headers["p_sam"])
    print(f"\nviewer: {sent} cases")
    assert sent > 100 and state(gateway.db_path) == before


def test_a_property_scoped_pm_reads_nothing_outside_her_property(gateway):
    sent = fuzz(gateway, gateway.headers["p_nora"], no_outside_records=True)
    print(f"\nproperty-scoped pm: {sent} cases")
    assert sent > 100
