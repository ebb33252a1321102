"""Drift guards: no facility prose under prompts/roles, an L2 character ceiling, L0's facility hint."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import prompts
from prompts.directory import all_features
from prompts.l0 import FACILITY_HINT, L0_PROMPT

ROLES_DIR = Path(prompts.__file__).parent / "roles"
FACILITY_PROSE = re.compile(r"\b(?:pool\w*|parking|pets?|amenit\w*|hours|gyms?)\b", re.IGNORECASE)
L2_CHAR_CEILING = 2000
ROLE_FILES = sorted(ROLES_DIR.rglob("*.py"))


def test_the_guard_itself_catches_facility_prose():
    for leak in ("The pool opens at 9", "Pets are welcome", "PARKING is $95", "office hours", "the gym",
                 "our amenities"):
        assert FACILITY_PROSE.search(leak), leak
    for fine in ("carpet", "competitor", "spool", "hour", "gymnast"):
        assert not FACILITY_PROSE.search(fine), fine


def test_every_role_file_is_scanned():
    assert len([p for p in ROLE_FILES if p.stem != "__init__"]) == 15


@pytest.mark.parametrize("path", ROLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_facility_prose_in_l2(path):
    hits = [(n, m.group(0)) for n, line in enumerate(path.read_text().splitlines(), 1)
            for m in FACILITY_PROSE.finditer(line)]
    assert hits == [], f"facility facts belong to facility tools, not L2 prose: {path}: {hits}"


@pytest.mark.parametrize("feature", all_features(), ids=lambda f: f.key)
def test_l2_character_ceiling(feature):
    assert len(feature.prompt) <= L2_CHAR_CEILING, f"{feature.key}: {len(feature.prompt)} chars"


def test_l0_carries_the_facility_hint_once():
    assert L0_PROMPT.count(FACILITY_HINT) == 1
    assert "tools" in FACILITY_HINT and "pool" in FACILITY_HINT
