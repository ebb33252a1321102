"""deploy/grafana/clara.json queries only metrics the code defines (actors.metrics), under the names
Ray exports them by, and every defined metric has a panel; no label names a person."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from actors.metrics import EVENT_METRICS, METRICS

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "clara.json"
# What Prometheus sees for each kind: Ray prefixes `ray_`; counters end in `_total`.
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}
SERIES = re.compile(r"\bray_clara_[a-z0-9_]+")
# Closed vocabularies only: never a phone number, a name or a Person id.
ALLOWED_LABELS = {"channel", "outcome", "tool", "decision", "status", "role_set", "kind", "reason", "host"}


def exported_names() -> dict[str, str]:
    return {f"ray_{name}{suffix}": name for name, spec in METRICS.items() for suffix in SUFFIXES[spec.kind]}


def panels() -> list[dict]:
    return json.loads(DASHBOARD.read_text())["panels"]


@pytest.mark.parametrize("panel", panels(), ids=lambda p: p["title"])
def test_each_panel_queries_a_defined_metric(panel):
    exprs = [target["expr"] for target in panel["targets"]]
    assert exprs, "a panel without a query"
    for expr in exprs:
        used = SERIES.findall(expr)
        assert used, f"{expr!r} queries no gateway metric"
        unknown = [name for name in used if name not in exported_names()]
        assert not unknown, f"{panel['title']}: {unknown} are not defined in actors/metrics.py"


def test_every_defined_metric_has_a_panel():
    queried = {exported_names()[name] for panel in panels() for t in panel["targets"] for name in SERIES.findall(t["expr"])}
    assert queried == set(METRICS)


def test_labels_are_closed_vocabularies_and_events_map_to_counters():
    for name, spec in METRICS.items():
        assert set(spec.tags) <= ALLOWED_LABELS, name
        assert spec.kind in SUFFIXES
    assert all(METRICS[name].kind == "counter" for name in EVENT_METRICS.values())


def test_panel_queries_group_only_by_defined_labels():
    for panel in panels():
        for target in panel["targets"]:
            for group in re.findall(r"by \(([^)]*)\)", target["expr"]):
                labels = {label.strip() for label in group.split(",")} - {"le"}
                metrics = [exported_names()[n] for n in SERIES.findall(target["expr"])]
                defined = set().union(*(METRICS[m].tags for m in metrics))
                assert labels <= defined, (panel["title"], labels - defined)
