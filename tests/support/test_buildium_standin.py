"""The Buildium stand-in itself: it finds what breaks Buildium's document, in a request and in
what it serves, and it refuses what Buildium refuses (no key headers, past the rate limit)."""
from __future__ import annotations

import httpx
import pytest

from tests.support.buildium_helpers import small_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub

KEYS = {"x-buildium-client-id": CLIENT_ID, "x-buildium-client-secret": CLIENT_SECRET}


@pytest.fixture
def stub():
    with BuildiumStub(small_account()) as s:
        yield s


def test_documented_requests_and_realistic_data_pass(stub):
    for path in ("/v1/rentals", "/v1/rentals/units", "/v1/rentals/units/listings", "/v1/leases/tenants",
                 "/v1/leases?leasestatuses=Active&leasestatuses=Future", "/v1/vendors?status=Active"):
        reply = httpx.get(f"{stub.url}{path}", params={"limit": 1000}, headers=KEYS)
        assert reply.status_code == 200, path
        assert int(reply.headers["X-Total-Count"]) == len(reply.json())
    assert stub.violations.found == []


@pytest.mark.parametrize("path, params, found", [
    ("/v1/rentals", {"lastupdated": "2026-01-01T00:00:00Z"}, "'lastupdated' is not declared"),
    ("/v1/leases", {"leasestatuses": "Current"}, "query leasestatuses"),
    ("/v1/rentals", {"offset": "ten"}, "is not an integer"),
    ("/v1/rentals/units", {"limit": 5000}, "above Buildium's 1000"),
    ("/v1/nothing", {}, "no such operation"),
])
def test_a_request_against_the_document_is_a_violation(stub, path, params, found):
    httpx.get(f"{stub.url}{path}", params=params, headers=KEYS)
    assert any(found in v for v in stub.violations.found), stub.violations.found


def test_a_body_outside_its_schema_and_a_served_record_outside_it_are_violations(stub):
    httpx.post(f"{stub.url}/v1/tasks/residentrequests", headers=KEYS,
               json={"Title": "Leak", "UnitAgreementId": 3001, "TaskStatus": "Open", "Priority": "Normal",
                     "Tenant": 5001})
    assert any("TaskStatus" in v or "'Open'" in v for v in stub.violations.found)
    assert any("RequestedByEntityId" in v for v in stub.violations.found)
    assert any("Tenant" in v for v in stub.violations.found)  # additionalProperties: false
    stub.violations.found.clear()
    stub.account.units[0]["UnitBedrooms"] = "Loft"
    httpx.get(f"{stub.url}/v1/rentals/units", headers=KEYS)
    assert any("UnitBedrooms" in v for v in stub.violations.found)


def test_no_key_headers_is_401_and_past_ten_a_second_is_429(stub):
    assert httpx.get(f"{stub.url}/v1/rentals").status_code == 401
    stub.violations.found.clear()
    stub.rate_per_s = 0.001  # the burst of 10 left, and no refill however slowly this machine sends
    codes = [httpx.get(f"{stub.url}/v1/rentals", headers=KEYS).status_code for _ in range(12)]
    assert codes[:9] == [200] * 9 and codes[-1] == 429
    assert stub.violations.found == []
