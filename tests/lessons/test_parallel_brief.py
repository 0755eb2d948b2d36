"""Notebook 08's parallel brief dict: one branch per city from START, joined before the draft."""

from __future__ import annotations

import operator

from lessons.parallel_brief import brief_in_parallel, collect_one
from mingraph_lite.course.brief import BriefNodes
from mingraph_lite.course.weather import WEATHER
from mingraph_lite.graph import END, START


def test_each_city_is_a_branch_from_start_and_the_draft_waits_for_all_of_them():
    graph = brief_in_parallel(BriefNodes(), ["Oslo", "Cairo"], collect_one, {"events": operator.add})
    assert graph["edges"][START] == ["collect_Oslo", "collect_Cairo"]
    assert graph["joins"] == {"write_draft": {"collect_Oslo", "collect_Cairo"}}
    assert graph["edges"]["publish"] == [END] and graph["edges"]["hold"] == [END]
    router, path_map = graph["routers"]["check_draft"]
    assert path_map == {"accept": "publish", "revise": "revise_draft", "hold": "hold"}


def test_the_first_try_branch_repeats_the_worksheets_readings_then_adds_its_city():
    slip = collect_one("Cairo")({"readings": []})
    assert slip["readings"] == [{"city": "Cairo", **WEATHER["Cairo"]}]
    assert slip["events"] == ["collected Cairo"]
    kept = {"city": "Oslo", **WEATHER["Oslo"]}
    assert collect_one("Cairo")({"readings": [kept]})["readings"] == [kept, {"city": "Cairo", **WEATHER["Cairo"]}]


def test_reducers_of_finds_each_annotated_fields_reducer_and_nothing_else():
    from lessons.parallel_brief import reducers_of
    from mingraph_lite.course.brief import BriefState

    assert reducers_of(BriefState) == {"readings": operator.add, "events": operator.add}


def test_branch_nodes_merge_by_node_name_while_send_packets_merge_in_send_order():
    """Notebook 08's table: the package merges slips of nodes by name, one Send node's packets in Send order."""
    from lessons.parallel_brief import declare_parallel
    from mingraph_lite.course.brief import BriefState, build_brief_graph, initial_state
    from mingraph_lite.graph import StateGraph

    three = initial_state(["Tokyo", "Paris", "Oslo"])
    by_send = build_brief_graph("complete").invoke(three)
    by_name = declare_parallel(StateGraph(BriefState), BriefNodes("complete"), three["cities"],
                               collect_one).compile().invoke(three)
    assert [reading["city"] for reading in by_send["readings"]] == ["Tokyo", "Paris", "Oslo"]
    assert [reading["city"] for reading in by_name["readings"]] == ["Oslo", "Paris", "Tokyo"]
