"""Admin pages need the admin token: a bearer header, or the cookie /admin/login sets."""
from __future__ import annotations

import pytest

from tests.admin.admin_support import AUTH, JSON_ROUTES, PAGES
from tests.gateway.sms_support import ADMIN_TOKEN, OfflinePool


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


async def test_cookie_login_signs_a_browser_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get("/admin/login", params={"token": ADMIN_TOKEN})
    assert response.status_code == 303 and response.headers["location"] == "/admin"
    cookie = response.headers["set-cookie"].lower()
    assert cookie.startswith("token=") and "httponly" in cookie and "samesite=strict" in cookie
    assert "path=/admin" in cookie and "secure" not in cookie  # plain http here
    assert client.cookies.get("token") == ADMIN_TOKEN
    for path in ("/admin", "/admin/status", "/admin/traces"):  # pages and the JSON API alike
        assert (await client.get(path)).status_code == 200, path


async def test_login_form_post_signs_in(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.post("/admin/login", data={"token": ADMIN_TOKEN})
    assert response.status_code == 303 and client.cookies.get("token") == ADMIN_TOKEN
    assert (await client.get("/admin/tools")).status_code == 200


async def test_wrong_token_gets_no_cookie(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get("/admin/login", params={"token": ADMIN_TOKEN + "x"})
    assert response.status_code == 401 and "set-cookie" not in response.headers
    assert "wrong admin token" in response.text
    assert (await client.get("/admin")).status_code == 401


async def test_a_forged_cookie_is_refused(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    client.cookies.set("token", "guess")
    assert (await client.get("/admin/status")).status_code == 401
    assert (await client.get("/admin/traces")).status_code == 401


async def test_cookie_is_secure_behind_tls(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    response = await client.get("/admin/login", params={"token": ADMIN_TOKEN}, headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 303 and "secure" in response.headers["set-cookie"].lower()


async def test_logout_clears_the_cookie(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    await client.get("/admin/login", params={"token": ADMIN_TOKEN})
    response = await client.get("/admin/logout")
    assert response.status_code == 303 and 'token=""' in response.headers["set-cookie"]
    assert (await client.get("/admin")).status_code == 401


async def test_pages_closed_without_a_configured_token(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine), admin_token=None)
    for response in (await client.get("/admin/status", headers={"Authorization": "Bearer "}),
                     await client.get("/admin/login", params={"token": ""})):
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
    response = await client.get("/admin/login", params={"token": ADMIN_TOKEN, "next": target})
    assert response.status_code == 303 and response.headers["location"] == "/admin"
