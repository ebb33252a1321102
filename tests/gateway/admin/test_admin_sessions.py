"""Admin sign-in and sessions (issue 28, findings 9 and 10).

10: signing in and out are POSTs with this gateway's Origin: a cross-site link to
`/admin/login?token=` signs no one in, a link to `/admin/logout` signs no one out, and a
cross-site form can do neither. 9: a session is bound to the credential it was opened with and
ends when that credential is rotated, revoked or expires; it never outlives a staff token."""
from __future__ import annotations

from datetime import timedelta

from spine.admin_access import issue_token
from spine.identity import utcnow
from tests.support.gateway_helpers import ADMIN_TOKEN, OfflinePool

EVIL = {"Origin": "https://evil.example"}


async def sign_in(client, token: str = ADMIN_TOKEN, headers: dict | None = None):
    return await client.post("/admin/login", data={"token": token}, headers=headers or {})


async def signed_in(client) -> bool:
    return (await client.get("/admin/status")).status_code == 200


async def test_a_link_with_a_token_signs_no_one_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get("/admin/login", params={"token": ADMIN_TOKEN, "next": "/admin/status"})
    assert response.status_code == 200 and "set-cookie" not in response.headers
    assert "a token in a link is not accepted" in response.text
    assert 'method="post" action="/admin/login"' in response.text  # the form, which keeps `next`
    assert '<input type="hidden" name="next" value="/admin/status">' in response.text
    assert not await signed_in(client)
    form = await client.get("/admin/login")
    assert form.status_code == 200 and 'name="token"' in form.text and "not accepted" not in form.text


async def test_a_cross_site_form_signs_no_one_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await sign_in(client, headers=EVIL)
    assert response.status_code == 403 and "set-cookie" not in response.headers and "cross-origin" in response.text
    assert not await signed_in(client)
    assert (await sign_in(client, headers={"Origin": "http://gateway.test"})).status_code == 303  # our own pages
    assert await signed_in(client)


async def test_a_link_or_a_cross_site_form_signs_no_one_out(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    await sign_in(client)
    page = await client.get("/admin/logout")
    assert page.status_code == 200 and 'method="post" action="/admin/logout"' in page.text
    assert "set-cookie" not in page.headers and await signed_in(client)
    refused = await client.post("/admin/logout", headers=EVIL)
    assert refused.status_code == 403 and "set-cookie" not in refused.headers and await signed_in(client)
    index = (await client.get("/admin")).text
    assert 'method="post" action="/admin/logout"' in index and 'href="/admin/logout"' not in index
    assert (await client.post("/admin/logout")).status_code == 303 and not await signed_in(client)


async def test_rotating_the_operator_token_ends_its_sessions(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    await sign_in(client)
    cookie = client.cookies.get("session")
    same, _ = await make_admin(OfflinePool(spine))  # another replica, the same configuration
    same.cookies.set("session", cookie)
    assert await signed_in(same)
    rotated, _ = await make_admin(OfflinePool(spine), admin_token="rotated-" + ADMIN_TOKEN)
    rotated.cookies.set("session", cookie)
    assert not await signed_in(rotated)
    session = await spine.admin_session(cookie)
    assert ADMIN_TOKEN not in session.model_dump_json()  # bound by a keyed digest, never the token


async def test_a_session_lives_no_longer_than_its_staff_token(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    token, record = issue_token("p_priya", timedelta(seconds=2))
    await spine.put_admin_token(record)
    response = await sign_in(client, token)
    assert response.status_code == 303 and "max-age=2;" in response.headers["set-cookie"].lower()
    session = await spine.admin_session(client.cookies.get("session"))
    assert session.expires_at == record.expires_at and session.credential == record.token_hash
    assert await signed_in(client)
    # The token expires (as if its 2 s had passed): the session ends with it.
    await spine.put_admin_token(record.model_copy(update={"expires_at": utcnow() - timedelta(seconds=1)}))
    assert not await signed_in(client)


async def test_revoking_a_token_ends_the_sessions_it_opened(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    other, _ = await make_admin(OfflinePool(spine))
    first, first_record = issue_token("p_priya", timedelta(days=1))
    second, second_record = issue_token("p_priya", timedelta(days=1))
    for record in (first_record, second_record):
        await spine.put_admin_token(record)
    await sign_in(client, first)
    await sign_in(other, second)
    await spine.put_admin_token(first_record.model_copy(update={"revoked": True}))
    assert not await signed_in(client)
    assert await signed_in(other)  # opened with the other token, which still holds
