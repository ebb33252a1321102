# The README's two commands: `make run` (the gateway) and `make test` (the suite).
# Each creates or reuses .venv and installs what it needs, so both work on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test,bench]"
	touch $(STAMP)

.PHONY: install run lint docs test bench chromium
install: $(STAMP)

run: $(STAMP)
	$(BIN)/gateway demo

# The static gate (ruff's lint rules, mypy as configured in pyproject.toml); `make test` runs it first.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The documentation site (docs/, mkdocs.yml): strict, so a broken link or anchor, or a page missing
# from the nav, fails the build; `make test` runs it.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

# The browser tests drive Debian's Chromium through playwright (tests/gateway/admin/*browser*.py):
# installed here when missing and this user may (CI runs as root); otherwise they skip, saying why.
CHROMIUM := /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/dev/null 2>&1; } || \
	  echo "chromium is not installed: the browser tests will skip"

# Then the suite in three processes: each Ray group (tests/support/ray_fixtures.py) runs on one
# worker and its own private Ray, first, while the workers run every other module, one module at
# a time, beside them. PYTEST_ARGS narrows or adds.
test: lint docs chromium
	$(BIN)/python -m pytest -q -n 3 --dist loadgroup --no-loadscope-reorder $(PYTEST_ARGS)

# Every bench (a bench/*.py with a __main__; the others are its shared modules), one after another.
bench: $(STAMP)
	failed=""; for f in $$(grep -l '__name__ == "__main__"' bench/*.py); do $(BIN)/python $$f || failed="$$failed $$f"; done; \
	test -z "$$failed" || { echo "criteria not met in:$$failed"; exit 1; }
