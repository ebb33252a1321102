"""Admin pages need an admin identity: a bearer token (the operator's or a staff person's), or
the server-side session /admin/login opens."""
from __future__ import annotations

import pytest

from tests.support.admin_helpers import AUTH, JSON_ROUTES, PAGES, person_auth
from tests.support.gateway_helpers import ADMIN_TOKEN, OfflinePool


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {ADMIN_TOKEN}"}])
async def test_pages_refuse_without_the_token(make_admin, spine, path, headers):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get(path, headers=headers)
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("text/html")
    assert 'action="/admin/login"' in response.text and "Clara admin" in response.text


@pytest.mark.parametrize("path", JSON_ROUTES)
async def test_new_json_routes_refuse_as_json(make_admin, spine, path):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get(path, headers={"Authorization": "Bearer wrong"})
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert response.json() == {"detail": "missing or wrong bearer token"}


@pytest.mark.parametrize("path", PAGES[:-2] + JSON_ROUTES)
async def test_bearer_token_opens_pages_and_json(make_admin, spine, path):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get(path, headers=AUTH)
    expected = 404 if path.endswith("ix_1") else 200  # no such trace, but signed in
    assert response.status_code == expected, response.text


async def sign_in(client, token: str = ADMIN_TOKEN, **data):
    """The sign-in form's POST (the only way in: GET /admin/login just shows the form)."""
    return await client.post("/admin/login", data={"token": token, **data})


async def test_cookie_login_signs_a_browser_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await sign_in(client)
    assert response.status_code == 303 and response.headers["location"] == "/admin"
    cookie = response.headers["set-cookie"].lower()
    assert cookie.startswith("session=") and "httponly" in cookie and "samesite=strict" in cookie
    assert "path=/admin" in cookie and "secure" not in cookie and "max-age=28800" in cookie  # plain http here
    session = client.cookies.get("session")
    assert session and ADMIN_TOKEN not in session  # a server-side session id, not the token
    for path in ("/admin", "/admin/status", "/admin/traces"):  # pages and the JSON API alike
        assert (await client.get(path)).status_code == 200, path


async def test_login_form_post_signs_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.post("/admin/login", data={"token": ADMIN_TOKEN})
    assert response.status_code == 303 and client.cookies.get("session")
    assert (await client.get("/admin/tools")).status_code == 200


async def test_wrong_token_gets_no_cookie(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await sign_in(client, ADMIN_TOKEN + "x")
    assert response.status_code == 401 and "set-cookie" not in response.headers
    assert "wrong admin token" in response.text
    assert (await client.get("/admin")).status_code == 401


async def test_a_forged_cookie_is_refused(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    client.cookies.set("session", "guess")
    assert (await client.get("/admin/status")).status_code == 401
    client.cookies.set("session", ADMIN_TOKEN)  # the token itself is not a session
    assert (await client.get("/admin/status")).status_code == 401
    assert (await client.get("/admin/traces")).status_code == 401


async def test_cookie_is_secure_behind_tls(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.post("/admin/login", data={"token": ADMIN_TOKEN}, headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 303 and "secure" in response.headers["set-cookie"].lower()


async def test_logout_ends_the_session_on_the_server(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    await sign_in(client)
    session = client.cookies.get("session")
    response = await client.post("/admin/logout")
    assert response.status_code == 303 and 'session=""' in response.headers["set-cookie"]
    assert (await client.get("/admin")).status_code == 401
    client.cookies.set("session", session)  # a copy of the cookie kept from before
    assert (await client.get("/admin/status")).status_code == 401


async def test_cookie_is_secure_when_the_public_url_is_https(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine), public_url="https://clara.example")
    response = await sign_in(client)
    assert response.status_code == 303 and "; secure" in response.headers["set-cookie"].lower()


async def test_an_expired_session_is_refused(make_admin, spine):
    from datetime import timedelta

    from spine.admin_access import open_session

    client, _ = await make_admin(OfflinePool(spine))
    session_id, session = open_session("operator", timedelta(seconds=-1))
    await spine.put_admin_session(session)
    client.cookies.set("session", session_id)
    assert (await client.get("/admin/status")).status_code == 401


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1:9999"])
async def test_state_changing_admin_routes_refuse_a_foreign_origin(make_admin, spine, origin):
    pool = OfflinePool(spine)
    client, _ = await make_admin(pool)
    await sign_in(client)
    body = {"as_person_id": "p_priya", "property_id": "pf_yale", "message": "list open work orders"}
    page = await client.post("/admin/ask", data=body, headers={"Origin": origin})
    assert page.status_code == 403 and "cross-origin" in page.text
    api = await client.post("/admin/api/ask", json=body, headers={"Origin": origin})
    assert api.status_code == 403
    assert pool.submitted == []
    same = await client.post("/admin/ask", data=body, headers={"Origin": "http://gateway.test"})
    assert same.status_code == 200 and len(pool.submitted) == 1


async def test_a_person_token_signs_in_as_that_person_until_revoked(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    priya = await person_auth(spine, "p_priya")
    assert (await client.get("/admin/status", headers=priya)).status_code == 200
    token = priya["Authorization"].split()[1]
    assert (await sign_in(client, token)).status_code == 303
    assert (await client.get("/admin/status")).status_code == 200  # the session
    await spine.revoke_admin_access("p_priya")
    assert (await client.get("/admin/status", headers=priya)).status_code == 401
    assert (await client.get("/admin/status")).status_code == 401  # revoking ended her session too


async def test_an_expired_person_token_is_refused(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    stale = await person_auth(spine, "p_priya", days=-1)
    assert (await client.get("/admin/status", headers=stale)).status_code == 401


async def test_pages_closed_without_a_configured_token(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine), admin_token=None)
    for response in (await client.get("/admin/status", headers={"Authorization": "Bearer "}),
                     await sign_in(client, "")):
        assert response.status_code == 401 and "GATEWAY_ADMIN_TOKEN" in response.text
        assert "set-cookie" not in response.headers


async def test_sign_in_returns_to_the_page_asked_for(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    refused = await client.get("/admin/status")
    assert '<input type="hidden" name="next" value="/admin/status">' in refused.text
    response = await client.post("/admin/login", data={"token": ADMIN_TOKEN, "next": "/admin/status"})
    assert response.status_code == 303 and response.headers["location"] == "/admin/status"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/admin", "/administrator", "/admin\\..\\x"])
async def test_sign_in_is_no_open_redirect(make_admin, spine, target):
    client, _ = await make_admin(OfflinePool(spine))
    response = await sign_in(client, next=target)
    assert response.status_code == 303 and response.headers["location"] == "/admin"
