"""Notebook 03 loads notebook 02's sticky-note loop "without its printing": the two sources say the same."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from lessons.sticky_note import sticky_note_loop
from mingraph_lite.course.scripts import QUESTION, three_round_manager
from mingraph_lite.course.weather import weather_registry

NOTEBOOK_02 = Path(__file__).resolve().parents[2] / "notebooks" / "02_what_a_run_remembers.py"


def test_it_is_notebook_02s_loop_without_the_print_line():
    shown = re.search(r"^def sticky_note_loop.*?^    return answer\n", NOTEBOOK_02.read_text(encoding="utf-8"),
                      re.S | re.M).group(0)
    printing = [line for line in shown.splitlines() if line.strip().startswith("print(")]
    assert len(printing) == 1
    assert [line for line in shown.splitlines() if line not in printing] == \
        inspect.getsource(sticky_note_loop).splitlines()


def test_it_answers_the_three_round_question():
    assert sticky_note_loop(three_round_manager(), weather_registry(), QUESTION) == "Paris: 64°F, Tokyo: 75°F"
