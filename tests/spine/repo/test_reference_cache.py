"""Reference data (properties, units, vendors) is cached per process for a bounded time."""
from __future__ import annotations

import time

from spine.repo import Spine
from spine.repo.reference_cache import ReferenceCache


async def test_a_write_through_this_spine_is_seen_at_once(spine):
    unit = await spine.get_unit("u_yale_204")
    unit.monthly_rent_usd = 9999
    await spine.put_unit(unit)
    assert (await spine.get_unit("u_yale_204")).monthly_rent_usd == 9999


async def test_a_write_elsewhere_shows_after_the_ttl(spine):
    reader = Spine(spine.store, reference_ttl_s=0.2)
    writer = Spine(spine.store)
    assert (await reader.get_property("pf_yale")).name == "JP Yale Station"
    prop = await writer.get_property("pf_yale")
    prop.name = "Yale Station (renamed)"
    await writer.put_property(prop)
    assert (await reader.get_property("pf_yale")).name == "JP Yale Station"  # still cached
    time.sleep(0.25)
    assert (await reader.get_property("pf_yale")).name == "Yale Station (renamed)"


async def test_returned_models_are_fresh_copies(spine):
    first = await spine.get_vendor("v_carlos")
    first.services_property_ids.clear()
    assert "pf_capitol" in (await spine.get_vendor("v_carlos")).services_property_ids


async def test_absence_is_cached_and_ttl_zero_disables_the_cache(spine):
    uncached = Spine(spine.store, reference_ttl_s=0)
    assert await uncached.get_unit("u_nowhere") is None
    assert uncached.reference.get("UNIT#u_nowhere") == (False, None)
    assert await spine.get_unit("u_nowhere") is None
    assert spine.reference.get("UNIT#u_nowhere") == (True, None)


def test_the_cache_is_bounded():
    cache = ReferenceCache(ttl_s=60, max_entries=3)
    for i in range(5):
        cache.put(f"k{i}", {"i": i})
    assert len(cache._entries) <= 3 and cache.get("k4") == (True, {"i": 4})
