"""Round-6 reader fixes in notebooks 07 and 07: each claim the notebooks now make is held to a run here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessons.exercises import verdict
from lessons.exercises.nb08_send import brief_with_entry
from lessons.reference import reference
from mingraph_lite.course.brief import BriefState, initial_state, step_bound
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph.builder import compile_on

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NB06, NB07, NB08 = "07_graph_routing", "08_parallel_branches", "09_agent_graph"


def _cells(stem: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def _shown(stem: str) -> str:
    return "\n".join("".join(out.get("text", "")) for cell in _cells(stem) for out in cell.get("outputs", []))


def _markdown(stem: str) -> str:
    return " ".join("".join(c["source"]) for c in _cells(stem) if c["cell_type"] == "markdown").replace("\n", " ")


def _engines() -> list[str]:
    try:
        import langgraph  # noqa: F401
    except ImportError:
        return ["mingraph"]
    return ["mingraph", "langgraph"]


def test_06_says_only_a_plain_update_cannot_clear_a_reducer_field_and_shows_langgraphs_overwrite():
    text = _markdown(NB06)
    assert "cannot be cleared by an update at all" not in text and "Overwrite" in text
    pytest.importorskip("langgraph")
    assert "LangGraph, Overwrite([]) on the events field: []" in _shown(NB06)


def test_06_asks_for_a_prediction_before_the_max_steps_runs():
    assert "your guess: (not written yet) | finished with: [6]" in _shown(NB06)  # no guess is not a wrong guess


def _all_kept(cities: list[str]) -> dict:
    state = initial_state(cities)
    state["readings"] = [{"city": c, "celsius": WEATHER[c]["celsius"], "conditions": "haze"} for c in cities]
    return state


@pytest.mark.parametrize("engine", _engines())
def test_07_an_empty_fan_out_ends_the_run_silently_as_07_4_says(engine):
    graph = compile_on(engine, BriefState, lambda b, send: brief_with_entry(b, lambda state, send: [], send),
                       max_steps=step_bound(1))
    final = graph.invoke(_all_kept(["Cairo", "Oslo"]))
    assert (final["status"], final["draft"], final["events"]) == ("working", None, [])


@pytest.mark.parametrize("engine", _engines())
def test_07_the_reference_router_goes_straight_to_the_draft_when_nothing_is_missing(engine):
    graph = compile_on(engine, BriefState, lambda b, send: brief_with_entry(b, reference("08.3"), send),
                       max_steps=step_bound(1))
    final = graph.invoke(_all_kept(["Cairo", "Oslo"]))
    assert final["status"] == "published" and not any(e.startswith("collected") for e in final["events"])


def test_07_4_hint_reports_the_status_the_run_really_ended_with():
    def send_nothing_when_all_kept(state, send):
        have = {reading["city"] for reading in state["readings"]}
        return [send("collect_city", {"city": city}) for city in state["cities"] if city not in have]

    result = verdict("08.3", send_nothing_when_all_kept)
    assert result.status == "not yet" and "status 'working'" in result.message and "draft None" in result.message


def test_07_2_refuses_the_notebooks_own_run_supersteps_naming_the_early_join():
    """08.2 asks for the fix the notebook admits its loop needs: the loop as shown, run as is, fails the check."""
    from copy import deepcopy

    import jupytext

    from mingraph_lite.graph import END, START

    cell = next(c.source for c in jupytext.read(NOTEBOOKS / f"{NB07}.py").cells if "def run_supersteps(" in c.source)
    space = {"deepcopy": deepcopy, "START": START, "END": END}
    exec(cell, space)  # the notebook's next_nodes and run_supersteps, exactly as printed
    result = verdict("08.2", space["run_supersteps"])
    assert result.status == "not yet" and "next to one of its sources" in result.message, str(result)

    def stub(graph, state):
        raise NotImplementedError  # your code here

    assert verdict("08.2", stub).status == "not done"


def test_08_replays_gemma_run_12_which_swaps_the_cities_and_calls_celsius_fahrenheit():
    shown = _shown(NB08)
    assert "answer, its first line: Tokyo: 18°F, Paris: 24°F" in shown
    assert "lookups: ['Paris=18', 'Tokyo=24']" in shown
    assert "worked-example-10" not in (NOTEBOOKS / f"{NB08}.py").read_text(encoding="utf-8")
