# The two commands a learner needs: `make lab` and `make test`. Both set up .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What the course needs to open, and what the full test run needs on top (the local model, LangGraph, pytest...).
LAB_STAMP  := $(VENV)/.lab-installed
TEST_STAMP := $(VENV)/.test-installed
# JupyterLab refuses to run as root (containers, CI) unless told; a learner's own account needs nothing.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/notebooks/sanitize.cfg

.PHONY: lab test setup setup-test lint bench demo notebooks clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(LAB_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[openai,langgraph]'
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[openai,langgraph,local,dev]'
	touch $@ $(LAB_STAMP)

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
