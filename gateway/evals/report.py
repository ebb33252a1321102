"""The figures of a run: pass rates per role and per L2 feature, skipped judge criteria, JUnit XML."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree as ET

from pydantic import BaseModel

from gateway.evals.runner import ScenarioOutcome
from prompts.directory import all_features


class Rate(BaseModel):
    passed: int = 0
    total: int = 0

    @property
    def ratio(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def add(self, ok: bool) -> None:
        self.passed, self.total = self.passed + ok, self.total + 1

    def __str__(self) -> str:
        return f"{self.passed}/{self.total} ({self.ratio:.0%})"


class Summary(BaseModel):
    overall: Rate
    by_role: dict[str, Rate]
    by_feature: dict[str, Rate]
    judge_scored: int
    judge_skipped: int
    thin_features: list[str]  # L2 features with fewer than three scenarios


MIN_PER_FEATURE = 3


def summarize(outcomes: list[ScenarioOutcome]) -> Summary:
    overall = Rate()
    by_role: defaultdict[str, Rate] = defaultdict(Rate)
    by_feature: defaultdict[str, Rate] = defaultdict(Rate)
    for o in outcomes:
        overall.add(o.passed)
        by_role[o.scenario.role].add(o.passed)
        by_feature[o.scenario.feature_key].add(o.passed)
    thin = [f.key for f in all_features() if by_feature[f.key].total < MIN_PER_FEATURE]
    return Summary(overall=overall, by_role=dict(sorted(by_role.items())), by_feature=dict(sorted(by_feature.items())),
                   judge_scored=sum(t.judged for o in outcomes for t in o.turns),
                   judge_skipped=sum(t.judge_skipped for o in outcomes for t in o.turns), thin_features=thin)


def render(summary: Summary, outcomes: list[ScenarioOutcome], verbose: bool = False) -> str:
    lines = [f"{'FAIL' if not o.passed else 'ok  '} {o.scenario.feature_key:32} {o.scenario.name}"
             for o in outcomes if verbose or not o.passed]
    for o in outcomes:
        if not o.passed:
            lines += [f"       {line}" for line in o.failures]
            lines += [f"       reply {i + 1}: {t.reply!r}" for i, t in enumerate(o.turns)]
    lines.append("")
    lines += [f"role {role:10} {rate}" for role, rate in summary.by_role.items()]
    lines += [f"feature {key:32} {rate}" for key, rate in summary.by_feature.items()]
    lines.append(f"judge criteria: {summary.judge_scored} scored, {summary.judge_skipped} skipped (no model judge)")
    if summary.thin_features:
        lines.append(f"features with fewer than {MIN_PER_FEATURE} scenarios: {', '.join(summary.thin_features)}")
    lines.append(f"scenarios passed: {summary.overall}")
    return "\n".join(lines)


def write_junit(outcomes: list[ScenarioOutcome], path: Path) -> None:
    """One <testsuite> per L2 feature, one <testcase> per scenario, a <failure> per failed one."""
    suites = ET.Element("testsuites", name="gateway eval")
    grouped: dict[str, list[ScenarioOutcome]] = defaultdict(list)
    for o in outcomes:
        grouped[o.scenario.feature_key].append(o)
    for key, group in sorted(grouped.items()):
        suite = ET.SubElement(suites, "testsuite", name=key, tests=str(len(group)),
                              failures=str(sum(not o.passed for o in group)),
                              time=f"{sum(o.seconds for o in group):.3f}")
        for o in group:
            case = ET.SubElement(suite, "testcase", classname=key.replace("/", "."), name=o.scenario.name,
                                 file=o.scenario.source, time=f"{o.seconds:.3f}")
            if not o.passed:
                failure = ET.SubElement(case, "failure", message=o.failures[0][:300])
                failure.text = "\n".join(o.failures + [f"reply {i + 1}: {t.reply}" for i, t in enumerate(o.turns)])
            skipped = sum(t.judge_skipped for t in o.turns)
            if skipped:
                ET.SubElement(case, "properties").append(
                    ET.Element("property", name="judge_skipped", value=str(skipped)))
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)
