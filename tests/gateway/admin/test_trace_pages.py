"""Trace list and detail pages: filters, prompt anatomy, tool decisions, and escaped user text."""
from __future__ import annotations

from gateway.cli.sms import send_sms
from spine.records import (
    AgentTrace,
    OtherClassification,
    PromptSection,
    TraceEvent,
    TracePrompt,
    TraceRouting,
    TraceToolCall,
)
from tests.support.admin_helpers import AUTH
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, PUBLIC_URL, OfflinePool

XSS = "my toilet is overflowing! <script>alert('x')</script>"


async def text(client, from_: str, body: str) -> str:
    exchange = await send_sms(client, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_=from_, body=body,
                              account_sid=ACCOUNT_SID)
    assert exchange.status_code == 200, exchange.error
    return exchange.interaction_id


async def test_list_page_filters_and_escapes(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    marcus = await text(client, "+12065551001", XSS)
    carlos = await text(client, "+13035552020", "check on WO-42")
    page = (await client.get("/admin/traces/view", headers=AUTH)).text
    assert page.index(carlos) < page.index(marcus)  # newest first
    assert f'href="/admin/traces/view/{marcus}"' in page
    assert "<script>" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)" in page
    mine = (await client.get("/admin/traces/view", params={"participant_id": "p_marcus"}, headers=AUTH)).text
    assert marcus in mine and carlos not in mine
    voice = (await client.get("/admin/traces/view", params={"channel": "voice"}, headers=AUTH)).text
    assert marcus not in voice and "no traces" in voice
    one = (await client.get("/admin/traces/view", params={"limit": "1"}, headers=AUTH)).text
    assert carlos in one and marcus not in one


async def test_list_page_rejects_bad_filters(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    bad = await client.get("/admin/traces/view", params={"channel": "<fax>", "limit": "lots"}, headers=AUTH)
    assert bad.status_code == 400 and "&lt;fax&gt;" in bad.text and "limit must be a number" in bad.text


async def test_detail_page_of_a_real_turn(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    ix = await text(client, "+12065551001", XSS)
    trace = await spine.get_trace(ix)
    page = (await client.get(f"/admin/traces/view/{ix}", headers=AUTH)).text
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert trace.reply and trace.tool_calls  # the offline model files the work order
    # The breakpoint row sits right after the last cached section.
    last_cached = trace.prompt.sections[trace.prompt.breakpoint_index].name
    after = page.split(f"<td>{last_cached}</td>")[1]
    assert after.index("CACHE BREAKPOINT") < after.index(trace.prompt.sections[-1].name)
    assert '<tr class="mark"><td></td><td><b>CACHE BREAKPOINT</b>' in page
    for name in trace.tools_offered:
        assert f'<span class="pill">{name}</span>' in page
    call = trace.tool_calls[0]
    assert f"<b>{call.name}</b>" in page and f'<span class="pill good">{call.decision}</span>' in page
    assert f"input {trace.usage.input_tokens}" in page and "…1001" in page and "p_marcus" in page
    assert f'href="/admin/traces/{ix}"' in page  # the JSON route, unchanged
    assert (await client.get(f"/admin/traces/{ix}", headers=AUTH)).json()["interaction_id"] == ix


async def test_detail_page_shows_refusals_and_other_lane(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    trace = AgentTrace(
        interaction_id="ix_<crafted>", channel="admin", origin="admin", impersonated_by="p_priya",
        participant_id="p_jordan", property_id="pf_yale", inbound="<img src=x onerror=alert(1)>",
        reply="ok & done", routing=TraceRouting(roles=["other"], other_classification=OtherClassification(
            description="random <caller>", spine_category="wrong_number")),
        prompt=TracePrompt(sections=[PromptSection(layer="L0", name="L0", token_estimate=100),
                                     PromptSection(layer="L1", name="L1 breadcrumb", token_estimate=10)],
                           breakpoint_index=0),
        tool_calls=[TraceToolCall(tool_use_id="tu_1", name="respond_to_renewal", input={"decision": "<accept>"},
                                  decision="refused", reason="own-unit-primary: <roommate>", is_error=True)],
        events=[TraceEvent(kind="agent/graceful-degrade", reason="no_person_resolved_no_intent_hints")],
    )
    await spine.put_trace(trace)
    page = await client.get("/admin/traces/view/ix_%3Ccrafted%3E", headers=AUTH)
    assert page.status_code == 200
    html = page.text
    for raw in ("<img", "<caller>", "<roommate>", "<accept>", "<crafted>"):
        assert raw not in html, raw
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "ok &amp; done" in html
    assert '<span class="pill bad">refused</span>' in html and "own-unit-primary: &lt;roommate&gt;" in html
    assert "impersonated by p_priya" in html and "random &lt;caller&gt; / wrong_number" in html
    assert "≈100 of ≈110 estimated tokens above the breakpoint" in html
    assert "no_person_resolved_no_intent_hints" in html


async def test_unknown_trace_is_a_404_page(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = await client.get("/admin/traces/view/ix_<nope>", headers=AUTH)
    assert page.status_code == 404 and "ix_&lt;nope&gt;" in page.text and "<nope>" not in page.text
