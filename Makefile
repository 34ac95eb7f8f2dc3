# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
# They create .venv (curator + dev tools), .ls-venv (Label Studio, whose pins clash with
# ours), .bench-venv (presidio-evaluator, see bench-venv below) and install Tesseract, Node.js, Go
# and Chromium through apt-get when they are missing.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LS_VENV := .ls-venv
LABEL_STUDIO_VERSION := 1.23.2
BENCH_VENV := .bench-venv
PRESIDIO_EVALUATOR_VERSION := 0.3.2
BENCH_FAKER_VERSION := 40.63.0
BENCH_STAMP := $(BENCH_VENV)/.installed-$(PRESIDIO_EVALUATOR_VERSION)-faker-$(BENCH_FAKER_VERSION)
# The eval harnesses tests/harness runs curator's exports in: never curator dependencies.
HARNESS_VENV := build/harness-venv
HARNESS_PINS := inspect-ai==0.3.285 deepeval==4.3.1 ragas==0.4.3 langchain-community<0.4 langfuse==5.2.0
HARNESS_CONSTRAINTS := tests/harness/constraints.txt
HARNESS_STAMP := $(HARNESS_VENV)/.installed-$(shell echo '$(HARNESS_PINS)' | cksum | cut -d' ' -f1)
PROMPTFOO_VERSION := 0.121.20
PROMPTFOO_STAMP := build/promptfoo/.installed-$(PROMPTFOO_VERSION)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test demo lint docs schemas bench bench-venv harness-envs clean

deps: $(VENV)/.installed $(LS_VENV)/.installed $(BENCH_STAMP) harness-envs system-deps

$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	touch $@

$(LS_VENV)/.installed:
	$(PYTHON) -m venv $(LS_VENV)
	$(LS_VENV)/bin/python -m pip install -q --upgrade pip
	$(LS_VENV)/bin/python -m pip install -q 'label-studio==$(LABEL_STUDIO_VERSION)'
	touch $@

# presidio-evaluator generates the labelled sentences of benchmarks/pii_generated.py (and
# tests/anonymise/test_generated_recall.py, which make test runs with it). Its own venv keeps its
# dependencies (spaCy, transformers, pandas...) out of .venv. Faker is pinned too: the
# sentences are drawn from its data. A new pin rebuilds the venv.
bench-venv: $(BENCH_STAMP)

$(BENCH_STAMP):
	rm -rf $(BENCH_VENV)
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install -q 'presidio-evaluator==$(PRESIDIO_EVALUATOR_VERSION)' 'faker==$(BENCH_FAKER_VERSION)'
	touch $@

# inspect_ai, DeepEval, Ragas and Langfuse in a venv of their own, promptfoo from npm (Node 20
# runs 0.121.x; newer promptfoo needs Node 22): tests/harness loads curator's exports with
# their own loaders. Made when missing, reused when present; a new pin (or constraint: every
# package they pull in is pinned there) remakes it.
harness-envs: system-deps $(HARNESS_STAMP) $(PROMPTFOO_STAMP)

$(HARNESS_STAMP): $(HARNESS_CONSTRAINTS)
	rm -rf $(HARNESS_VENV)
	$(PYTHON) -m venv $(HARNESS_VENV)
	$(HARNESS_VENV)/bin/python -m pip install -q --upgrade pip
	$(HARNESS_VENV)/bin/python -m pip install -q -c $(HARNESS_CONSTRAINTS) \
	  $(foreach pin,$(HARNESS_PINS),'$(pin)')
	touch $@

$(PROMPTFOO_STAMP):
	rm -rf build/promptfoo
	mkdir -p build/promptfoo
	cd build/promptfoo && echo '{"private": true}' > package.json && \
	  npm install -q --no-audit --no-fund 'promptfoo@$(PROMPTFOO_VERSION)'
	touch $@

# Tesseract for OCR; Node.js and npm for promptfoo (tests/harness); Go for tests/go
# (a Go eval suite reading a bundle's thread files); Chromium (Debian's package, never a
# browser download) opens the HTML report and the pushed Label Studio tasks in the browser
# tests. Where Go or Chromium cannot be installed, their tests say so and skip.
system-deps:
	@command -v tesseract >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq tesseract-ocr >/dev/null; }
	@command -v go >/dev/null 2>&1 || { \
	  { $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq golang >/dev/null; } || \
	  echo "make: could not install Go; tests/go will skip" >&2; }
	@command -v npm >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v chromium >/dev/null 2>&1 || { \
	  { $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; } || \
	  echo "make: could not install chromium; the browser tests will skip" >&2; }

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The site goes to build/site. --strict turns every warning (a broken link, a missing
# anchor, a generated block that does not resolve) into a failure. Material's banner about
# its successor is not a warning of this build.
docs: $(VENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# Four workers even on two cores: much of the suite waits on Tesseract, Label Studio,
# Chromium and subprocesses rather than computing.
test: deps lint docs
	LABEL_STUDIO_BIN=$(CURDIR)/$(LS_VENV)/bin/label-studio $(PY) -m pytest -q -n 4

demo: deps
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH LABEL_STUDIO_BIN=$(CURDIR)/$(LS_VENV)/bin/label-studio bash scripts/demo.sh

schemas: $(VENV)/.installed
	$(PY) -m curator.schemas

bench: deps
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) $(LS_VENV) $(BENCH_VENV) build
