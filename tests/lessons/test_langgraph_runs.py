"""The printed LangGraph runs of notebooks 07 and 08, and the LangGraph behaviour their text states, held to runs."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest

from lessons.langgraph_runs import (
    Misspeller,
    compare_engines,
    misspelt_runs,
    overwrite_clears,
    package_matches_loop,
    plain_field_refusals,
    show_recursion_limits,
    uneven_joins,
)
from lessons.parallel_brief import brief_in_parallel, collect_one, declare_parallel, reducers_of
from mingraph_lite.course.brief import BriefNodes, BriefState, initial_state


class _Plain(TypedDict):
    readings: list
    events: Annotated[list, operator.add]


def test_each_engine_refuses_two_writes_to_a_plain_field_and_only_ours_names_the_nodes(capsys):
    refused = plain_field_refusals(_Plain, collect_one, ["Tokyo", "Paris"])
    assert "collect_Tokyo" in refused["mingraph_lite"] and "collect_Paris" in refused["mingraph_lite"]
    if "langgraph" in refused:
        assert "collect_" not in refused["langgraph"] and "At key 'readings'" in refused["langgraph"]
    assert capsys.readouterr().out.count("\n") == len(refused)


def test_recursion_limit_is_max_steps_plus_one_and_the_snapshots_number_the_steps(capsys):
    pytest.importorskip("langgraph")
    from langgraph.graph import END, START, StateGraph

    from mingraph_lite.course.brief import BriefState

    nodes, builder = BriefNodes("missing-notice", 1), StateGraph(BriefState)  # 06's brief, one node per step
    for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
        builder.add_node(name, getattr(nodes, name))
    for source, target in ((START, "collect"), ("collect", "write_draft"), ("write_draft", "check_draft"),
                           ("revise_draft", "check_draft"), ("publish", END), ("hold", END)):
        builder.add_edge(source, target)
    builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                  {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
    steps = show_recursion_limits(builder, initial_state(["Tokyo", "Paris"]), limits=(6, 7))
    shown = capsys.readouterr().out
    assert "recursion_limit=6: GraphRecursionError" in shown and "recursion_limit=7: finished" in shown
    assert 'invoke(state, config={"recursion_limit": limit})' in shown  # the LangGraph call, printed
    assert steps == list(range(-1, 7))


def test_one_parallel_declaration_matches_on_both_engines():
    pytest.importorskip("langgraph")
    from functools import partial

    from lessons.parallel_brief import declare_parallel
    from lessons.reference import reference

    declare = partial(declare_parallel, collect_node=reference("08.1"))
    rows = compare_engines(declare, initial_state(["Tokyo", "Oslo"]), styles=("complete", "stubborn"))
    assert rows == [("complete", True, True), ("stubborn", True, True)]


def test_a_nodes_value_error_leaves_langgraph_as_a_value_error_as_06_says():
    pytest.importorskip("langgraph")
    from langgraph.graph import START, StateGraph

    class One(TypedDict):
        x: int

    def refuse(state):
        raise ValueError("refusing to publish")

    builder = StateGraph(One)
    builder.add_node("publish", refuse)
    builder.add_edge(START, "publish")
    with pytest.raises(ValueError, match="refusing to publish") as caught:
        builder.compile().invoke({"x": 1})
    assert type(caught.value) is ValueError


def test_uneven_joins_prints_who_ran_and_without_the_join_write_runs_twice_on_our_engine(capsys):
    steps = uneven_joins()
    out = capsys.readouterr().out
    assert [tuple(step) for step in steps] == [("a", "b"), ("a2", "write"), ("write",)]
    assert "mingraph_lite  join=True   ['a', 'b', 'a2', 'write']  write ran 1x" in out
    assert "mingraph_lite  join=False" in out and "write ran 2x" in out
    assert 'builder.add_edge(["a2", "b"], "write")' in out  # the declaration is printed, both versions


def test_overwrite_clears_a_reducer_field_on_langgraph(capsys):
    pytest.importorskip("langgraph")
    assert overwrite_clears(initial_state(["Tokyo"])) == []
    out = capsys.readouterr().out
    assert "Overwrite([]) on the events field: []" in out
    assert 'add_node("clear", lambda state: {"events": Overwrite([])})' in out  # the code that did it, printed


def test_the_misspelt_field_stops_our_engine_and_langgraph_drops_it(capsys):
    from mingraph_lite.graph import START, StateGraph

    def declare(nodes, on=StateGraph):
        builder = on(BriefState)
        for name in ("collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"):
            builder.add_node(name, getattr(nodes, name))
        for source, target in ((START, "collect"), ("collect", "write_draft"), ("write_draft", "check_draft"),
                               ("revise_draft", "check_draft")):
            builder.add_edge(source, target)
        builder.add_conditional_edges("check_draft", nodes.route_after_check,
                                      {"accept": "publish", "revise": "revise_draft", "hold": "hold"})
        return builder

    seen = misspelt_runs(declare, initial_state(["Tokyo", "Paris"]))
    assert "drafts" in seen["ours"] and "GraphExecutionError" in seen["ours"]
    if "langgraph" in seen:
        assert seen["langgraph"].startswith("needs_attention") and seen["langgraph"].endswith("False")
    assert isinstance(Misspeller(), BriefNodes)


def test_package_matches_loop_hears_each_superstep_and_tells_a_wrong_log_or_worksheet(capsys):
    from copy import deepcopy
    from functools import partial
    from pathlib import Path

    import jupytext

    from mingraph_lite.graph import END, START

    cells = jupytext.read(Path(__file__).parents[2] / "notebooks" / "08_parallel_branches.py").cells
    space = {"deepcopy": deepcopy, "START": START, "END": END}
    exec(next(cell.source for cell in cells if "def run_supersteps(" in cell.source), space)  # 08's loop, as printed
    three = initial_state(["Tokyo", "Paris", "Oslo"])
    parallel = brief_in_parallel(BriefNodes(), three["cities"], collect_one, reducers_of(BriefState))
    final, log = space["run_supersteps"](parallel, three)
    declare = partial(declare_parallel, collect_node=collect_one)
    assert package_matches_loop(declare, three, log, final) == (True, True)
    assert "same supersteps as our loop: True | same worksheet: True" in capsys.readouterr().out
    assert package_matches_loop(declare, three, [log[0], (2, ["hold"]), *log[2:]], final) == (False, True)
    assert package_matches_loop(declare, three, log, {**final, "status": "working"}) == (True, False)


def test_loop_on_engines_runs_the_join_once_per_lap_on_each_engine(capsys):
    from lessons.langgraph_runs import loop_on_engines

    def logs(name):
        return lambda state: {"log": [name]}

    nodes = {"lap": lambda state: {"log": ["lap"], "laps": state["laps"] + 1},
             **{name: logs(name) for name in ("c", "c2", "d", "meet")}}
    runs = loop_on_engines(nodes, lambda state: "again" if state["laps"] < 2 else "stop")
    assert runs and all(ran.count("meet") == 2 and ran[4::5] == ["meet", "meet"] for ran in runs.values())
    assert "ours:" in capsys.readouterr().out
