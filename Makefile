# The two set-up commands of the README. Both create .venv on first use, from the committed lock.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock
# pip itself is pinned too: pip-compile (pip-tools 7.6) works with a known range of pip releases.
PIP_VERSION := 25.3

.PHONY: run test test-fast lint lock bench clean

# Every package at the exact version the lock names, then the project itself without resolving
# anything again; `pip check` must be clean or the install stops here, before any test runs.
# It says what it does first: pip is quiet, and `make run` printed nothing for two minutes.
$(STAMP): $(LOCK) pyproject.toml
	@echo "Setting up $(VENV): installing the packages of $(LOCK) (first run, or the lock changed; a few minutes, quietly)..."
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==$(PIP_VERSION)
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@$(BIN)/python -m pip check || { echo "pip check failed: the installed set is inconsistent; run 'make clean' and 'make test' again, or refresh the lock with 'make lock'" >&2; exit 1; }
	touch $(STAMP)
	@echo "$(VENV) is ready."

run: $(STAMP)
	$(BIN)/lore demo --if-needed --vectors-later
	$(BIN)/lore

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto

# The quick subset while working: everything but the tests marked slow (pyproject.toml).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

# Style, types (mypy with the pydantic plugin over the four packages) and the import contracts
# of pyproject.toml (layers tui > agent > sessions > stores; Textual only in tui/).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Refresh the lock from pyproject.toml's ranges (newest releases inside them), then install it.
# Run `make test` afterwards: a refreshed lock lands only if the whole suite passes on it.
lock: $(STAMP)
	$(BIN)/pip-compile --quiet --upgrade --extra dev --strip-extras --no-emit-index-url \
		--no-emit-find-links --output-file $(LOCK) pyproject.toml
	$(MAKE) $(STAMP)

bench: $(STAMP)
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) .pytest_cache
