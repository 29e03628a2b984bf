# Transformer Explorer. `make run` starts the app; `make test` runs the whole suite (what CI runs);
# `make test-fast` the edit loop (no browser, no server process, no training beyond seconds).
# Both create .venv and install what they need; nothing is downloaded at run time.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501
# Test worker processes (pytest-xdist), whole modules to a worker (--dist loadfile), the longest modules first
# (tests/module_seconds.json; --no-loadscope-reorder keeps that order). The tests run torch on one thread and wait
# on browsers and servers: in one process the whole suite took 42 min on this 2-core machine, in two 17-19 min
# with the CPU busy (vmstat: ~9 % idle). Three overloaded it (load average 30, slower, a timing failure), so the
# default is two workers where there are two cores, one process on one core; `make test TEST_WORKERS=0` runs it in
# one process. docs/testing.md has the measurements.
TEST_WORKERS ?= $(shell [ "$$(nproc 2>/dev/null || echo 1)" -ge 2 ] && echo 2 || echo 0)
FAST_WORKERS ?= 2
XDIST = $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: run test test-fast screenshots lint bench install install-dev clean

run: $(VENV)/.installed
	$(BIN)/streamlit run app.py --server.headless true --server.port $(PORT)

test: $(VENV)/.installed-dev
	@if [ -x /usr/bin/chromium ]; then echo "Browser tests: using /usr/bin/chromium"; \
	elif [ "$$CI" = "true" ]; then echo "ERROR: CI=true but /usr/bin/chromium is missing (apt-get install -y chromium fonts-noto-cjk)"; exit 1; \
	else echo "!!! /usr/bin/chromium not found: the browser tests will be SKIPPED (apt-get install -y chromium fonts-noto-cjk) !!!"; fi
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(XDIST) --durations=25
	@git status --porcelain 2>/dev/null | grep -v '^??' | grep . && { echo "ERROR: the suite changed tracked files (above)"; exit 1; } || true

test-fast: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(FAST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not browser and not slow" -q

# The README's pictures: the browser tests write every screenshot under build/screenshots-docs, then the ones
# docs/screenshots already has are copied there, compressed (a page that changed on purpose; commit them).
screenshots: $(VENV)/.installed-dev
	rm -rf build/screenshots-docs
	TRANSFORMER_EXPLORER_SCREENSHOTS=$(CURDIR)/build/screenshots-docs $(BIN)/python -m pytest $(XDIST) -m browser -q
	$(BIN)/python -m tests.publish_screenshots build/screenshots-docs docs/screenshots

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/forward.py
	$(BIN)/python benchmarks/minilm.py
	$(BIN)/python benchmarks/browser_timing.py

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# torch is pinned in requirements.txt (2.13.0, the CPU wheel); an unpinned torch pulls CUDA builds.
# The project itself is installed editable (transformer_core + explorer): nothing edits sys.path.
$(VENV)/.installed: requirements.txt requirements-nodeps.txt pyproject.toml $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
