"""GET /admin/actors/view: the active PersonActors and the host holding each."""
from __future__ import annotations

from datetime import UTC, datetime

from actors.host.person_actor import ActorInfo
from tests.support.admin_helpers import AUTH
from tests.support.gateway_helpers import OfflinePool

AT = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)


class ListingPool(OfflinePool):
    def __init__(self, spine, infos=None, error: Exception | None = None) -> None:
        super().__init__(spine)
        self.infos, self.error = infos or [], error

    async def actors(self) -> list:
        if self.error is not None:
            raise self.error
        return self.infos


def info(key: str, person: str | None, host: str, roles: list[str]) -> ActorInfo:
    return ActorInfo(key=key, person_id=person, host=host, activated_at=AT, last_active=AT, turns=2, roles=roles)


async def test_actors_page_lists_each_actor_and_its_host(make_admin, spine):
    infos = [info("person:p_marcus", "p_marcus", "clara-host-0", ["tenant"]),
             info("person:p_carlos", "p_carlos", "clara-host-1", ["tenant", "vendor"]),
             info("addr:+14155559876", None, "clara-host-1", [])]
    client, _ = await make_admin(ListingPool(spine, infos))
    page = (await client.get("/admin/actors/view", headers=AUTH)).text
    assert "3 active on 2 host(s)" in page
    assert "<tr><td>clara-host-0</td><td>1</td></tr>" in page and "<tr><td>clara-host-1</td><td>2</td></tr>" in page
    carlos = page.split("<td>person:p_carlos</td>")[1].split("</tr>")[0]
    assert '<a href="/admin/traces/view?participant_id=p_carlos">p_carlos</a>' in carlos
    assert "<td>clara-host-1</td>" in carlos and '<span class="pill">vendor</span>' in carlos
    # An unknown caller's actor is keyed by address until minted; the page shows the last four only.
    assert "addr:…9876" in page and "4155559876" not in page


async def test_actors_page_survives_a_lost_host(make_admin, spine):
    client, _ = await make_admin(ListingPool(spine, error=RuntimeError("host <gone>")))
    page = await client.get("/admin/actors/view", headers=AUTH)
    assert page.status_code == 503 and "host &lt;gone&gt;" in page.text


async def test_no_actors(make_admin, spine):
    client, _ = await make_admin(ListingPool(spine))
    page = (await client.get("/admin/actors/view", headers=AUTH)).text
    assert "no active PersonActors" in page and "0 active on 0 host(s)" in page


async def test_actors_json_masks_numbers_as_the_page_does(make_admin, spine):
    infos = [info("person:p_marcus", "p_marcus", "clara-host-0", ["tenant"]),
             info("addr:+14155559876", None, "clara-host-1", [])]
    client, _ = await make_admin(ListingPool(spine, infos))
    listed = (await client.get("/admin/actors", headers=AUTH)).json()["actors"]
    assert [a["key"] for a in listed] == ["person:p_marcus", "addr:…9876"]
    assert "4155559876" not in str(listed)


async def test_email_addresses_are_masked_on_the_page_and_in_json_as_numbers_are(make_admin, spine):
    infos = [info("addr:email:marcus@example.com", None, "clara-host-0", []),
             info("addr:sms:+14155559876", None, "clara-host-1", [])]
    client, _ = await make_admin(ListingPool(spine, infos))
    listed = (await client.get("/admin/actors", headers=AUTH)).json()["actors"]
    assert [a["key"] for a in listed] == ["addr:email:m…@example.com", "addr:sms:…9876"]
    page = (await client.get("/admin/actors/view", headers=AUTH)).text
    assert "addr:email:m…@example.com" in page
    for shown in (str(listed), page):
        assert "marcus@example.com" not in shown and "4155559876" not in shown
