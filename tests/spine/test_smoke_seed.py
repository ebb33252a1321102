from spine.context import Channel
from spine.participants import resolve_participant
from spine.roles import resolve_active_roles


async def test_carlos_is_tenant_and_vendor_at_yale_vendor_only_at_capitol(spine):
    pid = await resolve_participant(spine, Channel.SMS, "(303) 555-2020")
    assert pid == "p_carlos"
    assert {r.role_type.value for r in await resolve_active_roles(spine, pid, "pf_yale")} == {"tenant", "vendor_contact"}
    assert {r.role_type.value for r in await resolve_active_roles(spine, pid, "pf_capitol")} == {"vendor_contact"}
