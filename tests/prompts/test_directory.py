"""The L2 directory: every feature the ADR lists, each exporting PROMPT and an honest META."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import prompts
from prompts.directory import LAYOUT, all_features, features_for
from prompts.meta import L2FeatureMeta
from spine.context import estimate_tokens
from spine.routing_types import MetaRole
from tools.matrix import TOOL_ROLE_MATRIX

ROLES_DIR = Path(prompts.__file__).parent / "roles"
ADR_FEATURES = {
    "tenant": {"maintenance", "renewal", "general_inquiry", "rating"},
    "vendor": {"respond_to_dispatch", "schedule_confirmation", "work_order_update", "handoff"},
    "prospect": {"discovery", "tour_schedule", "application", "disqualification"},
    "pm": {"ask_clara", "escalation_response"},
    "other": {"light_triage"},
}
PROTECTED = ["race", "color", "religion", "national origin", "sex", "familial status", "disability"]
FEATURES = all_features()


def test_the_directory_on_disk_is_exactly_the_adr_layout():
    on_disk = {d.name: {f.stem for f in d.glob("*.py") if f.stem != "__init__"}
               for d in ROLES_DIR.iterdir() if d.is_dir() and not d.name.startswith("__")}
    assert on_disk == ADR_FEATURES
    assert {role.value: set(names) for role, names in LAYOUT.items()} == ADR_FEATURES


@pytest.mark.parametrize("feature", FEATURES, ids=lambda f: f.key)
def test_every_feature_exports_prompt_and_honest_meta(feature):
    assert isinstance(feature.meta, L2FeatureMeta) and feature.prompt.strip()
    assert feature.meta.token_estimate == estimate_tokens(feature.prompt)
    if feature.meta.voice_applicable:
        assert feature.meta.voice_prompt_hint and len(feature.meta.voice_prompt_hint) > 20
    assert not re.search(r"\b(TODO|TBD|lorem|placeholder|XXX)\b|\{[a-z_]+\}", feature.prompt, re.IGNORECASE)


@pytest.mark.parametrize("feature", FEATURES, ids=lambda f: f.key)
def test_primary_tools_come_from_the_matrix_and_the_role_catalog(feature):
    own = {"other": "universal"}.get(feature.meta_role.value, feature.meta_role.value)
    for tool in feature.meta.primary_tools:
        assert tool in TOOL_ROLE_MATRIX, tool
        assert TOOL_ROLE_MATRIX[tool].catalog in {own, "universal"}, (feature.key, tool)
        assert tool in feature.prompt, f"{feature.key} names {tool} as primary but never mentions it"


def test_features_load_as_a_union_in_a_stable_order():
    tv = features_for([MetaRole.TENANT, MetaRole.VENDOR])
    assert [f.key for f in tv] == [f.key for f in features_for([MetaRole.VENDOR, MetaRole.TENANT, MetaRole.TENANT])]
    assert len(tv) == 8 and {f.meta_role for f in tv} == {MetaRole.TENANT, MetaRole.VENDOR}
    assert [f.key for f in features_for([MetaRole.OTHER])] == ["other/light_triage"]


@pytest.mark.parametrize("key", ["prospect/discovery", "prospect/disqualification"])
def test_prospect_prose_forbids_every_protected_class(key):
    text = next(f.prompt for f in FEATURES if f.key == key).lower()
    for protected in PROTECTED:
        assert protected in text, (key, protected)
    assert "escalate_to_human" in text and "accommodation" in text


def test_steering_phrases_appear_only_as_prohibitions():
    steering = re.compile(r"perfect for families|great for (?:young )?(?:professionals|families)|"
                          r"(?:good|ideal) for (?:kids|children)|quiet building for", re.IGNORECASE)
    for feature in FEATURES:
        for line in feature.prompt.splitlines():
            if steering.search(line):
                assert re.search(r"\b(?:no|never|don't|do not)\b", line, re.IGNORECASE), (feature.key, line)


def test_the_sensitive_paths_say_the_right_things():
    prompt = {f.key: f.prompt for f in FEATURES}
    assert "SAFETY" in prompt["tenant/maintenance"] and "emergency" in prompt["tenant/maintenance"]
    triage = prompt["other/light_triage"]
    assert "sorry for your loss" in triage and "escalate_to_human" in triage and "SAFETY" in triage
    assert "never tell anyone not to apply" in prompt["prospect/disqualification"].lower()


def test_admin_origin_narrows_the_pm_bundle_to_ask_clara_and_nothing_else():
    def keys(roles, origin="inbound"):
        return [f.key for f in features_for(roles, origin)]

    assert keys([MetaRole.PM]) == ["pm/ask_clara", "pm/escalation_response"]
    assert keys([MetaRole.PM], "admin") == ["pm/ask_clara"]
    # A PM impersonating a tenant is routed as the tenant: their bundle, whole.
    assert keys([MetaRole.TENANT], "admin") == keys([MetaRole.TENANT])
    assert keys([MetaRole.TENANT, MetaRole.PM], "admin") == keys([MetaRole.TENANT]) + ["pm/ask_clara"]
