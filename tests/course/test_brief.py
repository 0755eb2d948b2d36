"""The weather brief through every exit, its option checks, and its command line."""

from __future__ import annotations

import pytest

from mingraph_lite.course import brief
from mingraph_lite.course.brief import (
    NOTICE,
    BriefNodes,
    brief_main,
    build_brief_graph,
    initial_state,
    review_issues,
)
from mingraph_lite.errors import graph_context
from mingraph_lite.graph import StateGraph

COLLECT = ("collect_city", "collect_city")  # one parallel branch per city, in one superstep
COMPLETE = (*COLLECT, "write_draft", "check_draft", "publish")
MISSING = (*COLLECT, "write_draft", "check_draft", "revise_draft", "check_draft", "publish")
STUBBORN = (*COLLECT, "write_draft", "check_draft", "revise_draft", "check_draft", "hold")


@pytest.mark.parametrize("style, path", [("complete", COMPLETE), ("missing-notice", MISSING),
                                         ("stubborn", STUBBORN)])
def test_each_style_takes_its_path(style, path):
    graph = build_brief_graph(style)
    final = graph.invoke(initial_state())
    assert graph.path == path
    assert final["events"][:2] == ["collected Tokyo", "collected Paris"]  # merged in the order listed
    assert sum(e.startswith("collected") for e in final["events"]) == 2  # revising never collects again
    assert [r["city"] for r in final["readings"]] == ["Tokyo", "Paris"]
    assert graph.steps[:2] == (COLLECT, ("write_draft",))  # the branches join before the draft
    if style == "stubborn":
        assert final["status"] == "needs_attention" and final["answer"] is None
        assert final["review"]["issues"] == ["missing_fixed_data_notice"]
        assert final["draft"]["notice"] == ""  # the last draft is kept, not passed off as good
    else:
        assert final["status"] == "published"
        expected = "Tokyo: 24°C / 75.2°F, sunny.\nParis: 18°C / 64.4°F, partly cloudy.\n" + NOTICE
        assert final["answer"] == expected
        assert final["review"]["passed"] and final["review"]["checked_draft"] == final["draft"]


def test_the_revision_count_decides_revise_or_hold():
    graph = build_brief_graph("missing-notice", max_revisions=0)
    assert graph.invoke(initial_state())["status"] == "needs_attention"
    assert graph.path == (*COLLECT, "write_draft", "check_draft", "hold")
    graph = build_brief_graph("complete", max_revisions=0)
    assert graph.invoke(initial_state())["status"] == "published"
    graph = build_brief_graph("stubborn", max_revisions=2)
    final = graph.invoke(initial_state())
    assert final["revisions"] == 2 and len(graph.steps) == 8 and graph.path[-1] == "hold"


def test_the_brief_follows_the_data(monkeypatch):
    monkeypatch.setitem(brief.WEATHER, "Tokyo", {"celsius": 22, "conditions": "cloudy"})
    final = build_brief_graph().invoke(initial_state())
    assert "Tokyo: 22°C / 71.6°F, cloudy." in final["answer"]


def test_each_city_is_collected_in_its_own_branch_on_its_own_packet():
    seen = []
    original = BriefNodes.collect_city

    def spy(packet):
        seen.append(dict(packet))
        return original(packet)

    nodes = BriefNodes("complete")
    nodes.collect_city = spy
    graph = brief.connect_brief(StateGraph(brief.BriefState), nodes).compile(max_steps=10)
    graph.invoke(initial_state(["Paris", "Oslo", "Tokyo"]))
    assert seen == [{"city": "Paris"}, {"city": "Oslo"}, {"city": "Tokyo"}]  # a packet, not the state
    assert graph.steps[0] == ("collect_city",) * 3 and graph.steps[1] == ("write_draft",)


def test_celsius_only_and_a_single_city():
    final = build_brief_graph("complete").invoke(initial_state(["oslo"], include_fahrenheit=False))
    assert final["answer"] == "Oslo: 7°C, overcast.\n" + NOTICE


@pytest.mark.parametrize("cities, error, words", [
    (["Atlantis"], ValueError, "known cities"),
    ([], ValueError, "at least one city"),
    (["Paris", "paris"], ValueError, "twice"),
    ("Paris", TypeError, "list of city names"),
])
def test_initial_state_rejects_bad_options(cities, error, words):
    with pytest.raises(error, match=words):
        initial_state(cities)


def test_other_bad_options():
    with pytest.raises(TypeError, match="True or False"):
        initial_state(["Paris"], include_fahrenheit="yes")
    with pytest.raises(ValueError, match="draft_style"):
        BriefNodes("sloppy")
    with pytest.raises(ValueError, match="max_revisions"):
        BriefNodes(max_revisions=-1)


def checked_state():
    nodes = BriefNodes("complete")
    state = initial_state()
    for node in (nodes.collect, nodes.write_draft, nodes.check_draft):
        update = node(state)
        state = {**state, **update, "events": state["events"] + update.get("events", [])}
    return nodes, state


def test_publish_refuses_a_draft_changed_after_it_passed():
    nodes, state = checked_state()
    assert nodes.route_after_check(state) == "accept"
    state["draft"]["rows"][0]["celsius"] = 99
    with pytest.raises(ValueError, match="checked"):
        nodes.route_after_check(state)
    with pytest.raises(ValueError, match="not the draft that passed"):
        nodes.publish(state)


def test_a_draft_nobody_checked_is_not_routed():
    nodes, state = checked_state()
    state["review"] = None
    with pytest.raises(ValueError, match="not been checked"):
        nodes.route_after_check(state)


def test_the_checker_reads_the_draft():
    nodes, state = checked_state()
    assert review_issues(state) == []
    state["draft"]["rows"] = state["draft"]["rows"][:1]
    state["draft"]["notice"] = "Live!"
    assert review_issues(state) == ["missing_city:Paris", "wrong_notice"]


def test_a_failure_inside_the_graph_names_the_node(monkeypatch):
    def broken_publish(self, state):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(BriefNodes, "publish", broken_publish)
    with pytest.raises(RuntimeError, match="printer on fire") as info:  # the node's own error, as itself
        build_brief_graph("complete").invoke(initial_state())
    where = graph_context(info.value)
    assert where.node == "publish" and where.completed == COMPLETE[:-1]
    assert where.state["status"] == "working" and where.state["answer"] is None


@pytest.mark.parametrize("argv, code, words", [
    ([], 0, "PUBLISHED"),
    (["--draft-style", "complete"], 0,
     "supersteps: collect_city | collect_city -> write_draft -> check_draft -> publish"),
    (["--draft-style", "stubborn", "--max-revisions", "2"], 1, "HELD (status: needs_attention) after 2"),
    (["--max-revisions", "0"], 1, "missing_fixed_data_notice"),
])
def test_command_line_exit_codes(capsys, argv, code, words):
    assert brief_main(argv) == code
    assert words in capsys.readouterr().out


def test_command_line_show_updates(capsys):
    brief_main(["--show-updates"])
    out = capsys.readouterr().out
    assert out.count("collect_city updated: ['events', 'readings']") == 2
    assert out.count("check_draft updated:") == 2


@pytest.mark.parametrize("argv", [["--draft-style", "nope"], ["--max-revisions", "-1"],
                                  ["--cities", "Atlantis"]])
def test_command_line_rejects_bad_options(argv, capsys):
    with pytest.raises(SystemExit) as info:
        brief_main(argv)
    assert info.value.code == 2


def test_the_platform_listeners_work_on_the_brief_unchanged(tmp_path, capsys):
    from mingraph_lite.observers.console import ConsoleLogger
    from mingraph_lite.observers.recorder import EventRecorder
    from mingraph_lite.observers.trace import TraceRecorder, read_trace

    rec, trace = EventRecorder(), TraceRecorder(tmp_path / "brief.jsonl")
    graph = build_brief_graph(observers=[rec, trace, ConsoleLogger()])
    plain = build_brief_graph().invoke(initial_state())
    assert graph.invoke(initial_state()) == plain  # listeners change nothing
    assert [e["node"] for e in rec.of("node_end")] == list(MISSING)
    assert rec.names() == ["run_start", *["node_start", "node_end"] * len(MISSING), "finish"]
    assert [e["event"] for e in read_trace(tmp_path / "brief.jsonl")] == rec.names()
    assert "collect" in capsys.readouterr().out
