"""What a second fresh reader found in notebooks 07 and 07 stays fixed (issue 21): 07.1 cannot be passed by the
package's router, checks sit in cells of their own, the drawing and wiring live in lessons, each printed number is
measured by its own run, and the solutions hold one answer per question."""

from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from pathlib import Path

import jupytext
import pytest

from lessons.exercises import verdict
from mingraph_lite.course.brief import BriefNodes

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NB06, NB07, NB08 = "07_graph_routing", "08_parallel_branches", "09_agent_graph"


def _code(stem: str) -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOKS / f"{stem}.py").cells if cell.cell_type == "code"]


def _outputs(stem: str) -> list[str]:
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return ["".join("".join(out.get("text", "")) for out in cell.get("outputs", [])) for cell in cells]


def test_the_package_router_pasted_as_source_does_not_pass_06_1():
    source = textwrap.dedent(inspect.getsource(BriefNodes.route_after_check))
    source = source.replace("(self, state: dict)", "(state, max_revisions)").replace("self.max_revisions",
                                                                                     "max_revisions")
    space: dict = {"__name__": "__main__"}  # as in a notebook
    exec(source, space)  # the learner's paste: the same rules, no longer calling the package
    result = verdict("07.1", space["route_after_check"])
    assert result.status == "not yet" and "wrong numbers" in result.message


def test_06_prints_no_node_source_from_a_list_of_names():
    text = "\n".join(_code(NB06))
    assert "getattr(BriefNodes, name)" not in text
    assert not any("def route_after_check" in out for out in _outputs(NB06))


def test_every_check_of_06_07_and_08_sits_in_a_cell_of_its_own():
    for stem in (NB06, NB07, NB08):
        for source in _code(stem):
            if re.search(r"^check\(", source, re.MULTILINE):
                assert "= ..." not in source and "raise NotImplementedError" not in source, (stem, source)


def test_the_drawing_and_the_dict_wiring_live_in_lessons():
    assert not any("annotate(" in source or "LAYOUT" in source for source in _code(NB06))
    assert not any("def brief_in_parallel" in source or "def collect_one" in source for source in _code(NB07))
    assert all(len(source.splitlines()) <= 35 for source in _code(NB07) + _code(NB08))


def test_06_prints_the_step_numbers_its_text_explains():
    shown = "\n".join(_outputs(NB06))
    if "skipped: LangGraph is not installed" not in shown:
        assert "recursion_limit=6: GraphRecursionError" in shown and "recursion_limit=7: finished" in shown
        assert "[-1, 0, 1, 2, 3, 4, 5, 6]" in shown  # the snapshot steps the text explains


@pytest.mark.parametrize("stem", [NB07, NB08])
def test_07_and_08_solutions_define_questions_once_with_text_answers(stem):
    tree = ast.parse((NOTEBOOKS / "solutions" / f"{stem}.py").read_text(encoding="utf-8"))
    assigned = [node for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(target, "id", None) == "QUESTIONS" for target in node.targets)]
    assert len(assigned) == 1
    answers = ast.literal_eval(assigned[0].value)
    assert all(isinstance(text, str) for text in answers.values())
    assert sorted(answers) == [f"{stem[:2]}.Q{n}" for n in range(1, 6)]
