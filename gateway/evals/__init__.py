"""`gateway eval`: YAML conversation scenarios run through the real in-process path, scored per
role and L2 feature, written as JUnit XML (scenario.py: the format; runner.py: the run;
checks.py: the scoring; report.py: the figures)."""
from gateway.evals.report import Summary, summarize, write_junit
from gateway.evals.runner import run_scenarios
from gateway.evals.scenario import Scenario, ScenarioError, load_scenarios

__all__ = [
    "Scenario",
    "ScenarioError",
    "Summary",
    "load_scenarios",
    "run_scenarios",
    "summarize",
    "write_junit",
]
