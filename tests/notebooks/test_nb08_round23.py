"""What the round-23 reader found in notebook 08 stays fixed: no file to copy 08.1 from, a try-it that says when it
is done, a wiring print of the builder lines only, and our words mapped to LangGraph's."""

from __future__ import annotations

import json
from pathlib import Path

import jupytext

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08_parallel_branches.py"


def _cells(kind: str) -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOK).cells if cell.cell_type == kind]


def test_08_does_not_send_the_learner_to_collect_ones_file():
    assert not any("parallel_brief.py" in source for source in _cells("markdown"))


def test_the_langgraph_try_it_asserts_both_cities_and_says_so():
    cell = next(source for source in _cells("code") if "class FirstSketch" in source)
    assert 'assert cities == ["Paris", "Tokyo"]' in cell and "both cities came back" in cell
    assert any("both cities came back" in source for source in _cells("markdown"))


def test_the_send_wiring_print_shows_only_the_two_builder_lines():
    cells = json.loads(NOTEBOOK.with_suffix(".ipynb").read_text(encoding="utf-8"))["cells"]
    shown = next("".join(out.get("text", "")) for cell in cells for out in cell.get("outputs", [])
                 if "one packet:" in "".join(out.get("text", "")))
    wiring = shown.split("\n", 2)[2].splitlines()
    assert len(wiring) == 2 and all(line.startswith("builder.add") for line in wiring)
    assert "START" in wiring[0] and wiring[1] == 'builder.add_edge("collect_city", "write_draft")'


def test_08_maps_its_words_to_langgraphs_near_the_top():
    header = _cells("markdown")[0]
    assert all(word in header for word in ("worksheet", "*state*", "slip", "*update*", "packet", "`Send`"))
