"""Notebook 02's answer to question 6, run: which edits of ``sticky_note_loop`` break its ceiling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mingraph_lite import StepLimitReached
from mingraph_lite.course.scripts import QUESTION, looping_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ScriptExhausted

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "02_what_a_run_remembers.py"
BUMP = "            step += 1\n"


def _loop(edit):
    """The notebook's own sticky_note_loop, with ``edit`` applied to its source, and printing off."""
    source = re.search(r"^def sticky_note_loop.*?^    return answer\n", NOTEBOOK.read_text(encoding="utf-8"),
                       re.S | re.M)[0]
    edited = edit(source).replace("        print(", "        0 and print(")
    namespace = __import__("mingraph_lite").__dict__.copy()
    exec("from mingraph_lite.course.scripts import SYSTEM_PROMPT\n" + edited, namespace)
    return namespace["sticky_note_loop"]


def _calls(edit):
    llm = looping_manager(rounds=30)
    with pytest.raises((StepLimitReached, ScriptExhausted)) as stopped:
        _loop(edit)(llm, weather_registry(), QUESTION, max_steps=5)
    return len(llm.calls), stopped.type


def _moved(source):
    assert source.count(BUMP) == 1
    source, waiting = source.replace(BUMP, ""), '            situation = "waiting"\n'
    assert source.count(waiting) == 1
    return source.replace(waiting, "            step += 1\n" + waiting)


def test_the_notebooks_loop_stops_at_the_ceiling():
    assert _calls(lambda s: s) == (5, StepLimitReached)


def test_moving_the_bump_into_the_errands_branch_keeps_the_ceiling():
    assert _calls(_moved) == (5, StepLimitReached)


def test_deleting_the_bump_or_writing_greater_than_breaks_it():
    assert _calls(lambda s: s.replace(BUMP, "")) == (30, ScriptExhausted)
    assert _calls(lambda s: s.replace("step == max_steps", "step > max_steps")) == (6, StepLimitReached)
