"""`gateway eval`: YAML conversation scenarios run through the real in-process path, scored per
role and L2 feature, written as JUnit XML (scenario.py: the format; runner.py: the run;
checks.py: the scoring; report.py: the figures)."""
