"""The agent loop as a graph: same run, same announcements as Agent; budgets; batch checks; failures."""

from __future__ import annotations

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ScriptExhausted, StepLimitReached, graph_context
from mingraph_lite.graph import build_agent_graph, initial_agent_state, run_agent_graph
from mingraph_lite.graph.agent_graph import node_executions
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolMessage, UserMessage
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.tools import ToolRegistry


def agent_events(make_llm, registry=None, **limits):
    rec = EventRecorder()
    agent = Agent(make_llm(), registry or weather_registry(), SYSTEM_PROMPT, observers=[rec], **limits)
    try:
        agent.run({"question": QUESTION})
    except (StepLimitReached, RuntimeError, ScriptExhausted):
        pass
    return rec.events


def graph_run(make_llm, registry=None, **limits):
    rec = EventRecorder()
    graph = build_agent_graph(make_llm(), registry or weather_registry(), SYSTEM_PROMPT, observers=[rec],
                              **limits)
    return graph, run_agent_graph(graph, QUESTION), rec.events


def without_nodes(events):
    return [e for e in events if not e["event"].startswith("node_")]


@pytest.mark.parametrize("manager, rounds", [(four_round_manager, 4), (three_round_manager, 3)])
def test_same_run_and_same_announcements_as_agent(manager, rounds):
    graph, final, events = graph_run(manager)
    assert final["answer"] == "Paris: 64°F, Tokyo: 75°F" and final["stop_reason"] == "answered"
    assert final["model_steps"] == rounds and final["tool_calls_made"] == 4 and final["pending_calls"] == []
    assert graph.path == ("model", "tools") * (rounds - 1) + ("model",)
    assert without_nodes(events) == agent_events(manager)
    names = [e["event"] for e in events]
    assert names[0] == "node_start" and names[-1] == "node_end"
    assert names.count("node_start") == 2 * rounds - 1
    assert names.index("run_start") < names.index("step_start") < names.index("model_reply")


def test_the_model_reads_the_same_folder_as_with_agent():
    llm_a, llm_g = four_round_manager(), four_round_manager()
    Agent(llm_a, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})
    run_agent_graph(build_agent_graph(llm_g, weather_registry(), SYSTEM_PROMPT), QUESTION)
    assert [list(m) for m, _ in llm_g.calls] == [list(m) for m, _ in llm_a.calls]
    assert llm_g.calls[0][0] == [SystemMessage(SYSTEM_PROMPT), UserMessage(QUESTION)]


def test_model_budget_stops_before_the_call_and_keeps_the_work_done():
    graph, final, events = graph_run(four_round_manager, max_model_steps=1)
    assert final["stop_reason"] == "step limit" and final["answer"] is None
    assert final["model_steps"] == 1 and final["tool_calls_made"] == 2
    assert [m.content for m in final["messages"] if isinstance(m, ToolMessage)] == ["18", "24"]
    assert graph.path == ("model", "tools", "model")
    assert without_nodes(events) == agent_events(four_round_manager, max_steps=1)
    assert events[-2]["event"] == "finish" and events[-2]["reason"] == "step limit"


def test_tool_budget_is_checked_before_the_batch_starts():
    calls = []
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Weather.

        Args:
            city: a city
        """
        calls.append(city)
        return "18"

    graph, final, _ = graph_run(four_round_manager, registry, max_tool_calls=1)
    assert calls == [] and final["tool_calls_made"] == 0
    assert final["stop_reason"] == "tool budget" and final["answer"] is None
    slips = [m for m in final["messages"] if isinstance(m, ToolMessage)]
    assert len(slips) == 2 and all(s.is_error and "tool budget" in s.content for s in slips)
    assert final["pending_calls"] == []  # not run, and answered as not run: the folder stays valid
    assert graph.path == ("model", "tools")


def counting_registry(fail=False):
    ran = []
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Weather.

        Args:
            city: a city
        """
        ran.append(city)
        if fail and city == "Tokyo":
            raise RuntimeError("weather service down")
        return "18"

    return registry, ran


def test_the_whole_batch_is_checked_before_any_handler_runs():
    registry, ran = counting_registry()
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": 5})], "sorry"])
    final = run_agent_graph(build_agent_graph(llm, registry, SYSTEM_PROMPT), QUESTION)
    assert ran == []  # the valid first slip did not run ahead of the invalid second one
    first, second = [m for m in final["messages"] if isinstance(m, ToolMessage)]
    assert first.is_error and "not run" in first.content
    assert second.is_error and "city" in second.content and "fix" in second.content
    assert final["answer"] == "sorry" and final["tool_calls_made"] == 0


def test_a_failing_tool_ends_the_run_with_an_error_and_the_same_announcements():
    registry, ran = counting_registry(fail=True)
    def make():
        return ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})], "x"])

    graph, final, events = graph_run(make, registry)
    assert ran == ["Paris", "Tokyo"] and final["tool_calls_made"] == 2
    assert final["stop_reason"] == "tool failed" and final["answer"] is None
    assert "weather service down" in final["error"]
    slips = [m for m in final["messages"] if isinstance(m, ToolMessage)]
    assert [s.is_error for s in slips] == [False, True]
    assert graph.path == ("model", "tools")
    registry2, _ = counting_registry(fail=True)
    assert without_nodes(events) == agent_events(make, registry2)


def test_a_model_failure_propagates_as_itself_with_the_graph_context():
    rec = EventRecorder()
    graph = build_agent_graph(ScriptedLLM([]), weather_registry(), observers=[rec])
    with pytest.raises(ScriptExhausted) as info:
        run_agent_graph(graph, QUESTION)
    where = graph_context(info.value)
    assert where.node == "model" and where.completed == ()
    assert where.state["model_steps"] == 0
    assert [e["reason"] for e in rec.of("finish")] == ["model failed"]


def test_a_model_and_a_registry_are_required_and_nothing_is_set_on_the_graph():
    with pytest.raises(TypeError):
        build_agent_graph()  # no course defaults: graph/ does not know the course
    with pytest.raises(TypeError, match="a model and a tool registry"):
        build_agent_graph(None, weather_registry())
    graph = build_agent_graph(four_round_manager(), weather_registry(), SYSTEM_PROMPT)
    assert not hasattr(graph, "system_prompt") and not hasattr(graph, "step_bound")
    final = run_agent_graph(graph, QUESTION)
    assert final["answer"] == "Paris: 64°F, Tokyo: 75°F"
    assert isinstance(final["messages"][-1], AssistantMessage)


def test_the_budget_in_node_executions_and_langgraphs_limit_differ_by_one():
    from mingraph_lite.course.scripts import looping_manager
    from mingraph_lite.errors import GraphStepLimit
    from mingraph_lite.graph import StateGraph
    from mingraph_lite.graph.agent_graph import AgentNodes, AgentState, connect_agent

    assert [node_executions(n) for n in (0, 1, 4)] == [1, 3, 9]
    for budget in (1, 3):  # a model that never answers spends the whole budget: the longest run
        def compiled(max_steps, budget=budget):
            nodes = AgentNodes(looping_manager(), weather_registry(), max_model_steps=budget)
            return connect_agent(StateGraph(AgentState), nodes).compile(max_steps=max_steps)

        graph = compiled(node_executions(budget))
        assert graph.invoke(initial_agent_state(QUESTION))["stop_reason"] == "step limit"
        assert len(graph.path) == node_executions(budget)  # exactly reached: the bound is tight
        with pytest.raises(GraphStepLimit):
            compiled(node_executions(budget) - 1).invoke(initial_agent_state(QUESTION))


def test_langgraphs_recursion_limit_is_tight_for_the_same_budget():
    pytest.importorskip("langgraph")
    from mingraph_lite.course.scripts import looping_manager

    for budget in (1, 3):
        graph = build_agent_graph(looping_manager(), weather_registry(), max_model_steps=budget, engine="langgraph")
        assert run_agent_graph(graph, QUESTION)["stop_reason"] == "step limit"  # the bound it was built with
        with pytest.raises(Exception, match="[Rr]ecursion"):
            graph.invoke(initial_agent_state(QUESTION),
                         config={"recursion_limit": node_executions(budget)})  # one below the bound


def test_ctrl_c_in_a_tool_cuts_the_round_and_the_folder_stays_as_before_it():
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Weather.

        Args:
            city: a city
        """
        raise KeyboardInterrupt

    rec = EventRecorder()
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})], "again"])
    graph = build_agent_graph(llm, registry, SYSTEM_PROMPT, observers=[rec])
    with pytest.raises(KeyboardInterrupt):
        run_agent_graph(graph, QUESTION)
    # every slip was answered as the round was cut, and heard; the round then did not reach the folder
    answers = rec.of("tool_return")
    assert len(answers) == 2 and "tool failed" in answers[0]["content"] and "not run" in answers[1]["content"]
    assert [e["reason"] for e in rec.of("finish")] == ["stopped"]
    assert run_agent_graph(graph, QUESTION)["answer"] == "again"  # the same graph runs again


def test_a_strict_listener_failing_in_the_tools_node_answers_every_slip_before_the_error():
    class FailsOnFirstAnswer:
        def on_tool_return(self, result):
            raise RuntimeError("audit log unavailable")

    rec = EventRecorder()
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]])
    graph = build_agent_graph(llm, weather_registry(), SYSTEM_PROMPT, observers=[rec, FailsOnFirstAnswer()],
                              strict=True)
    with pytest.raises(Exception) as info:
        run_agent_graph(graph, QUESTION)
    error = getattr(info.value, "cause", None) or info.value
    assert str(error) == "audit log unavailable"
    assert len(rec.of("tool_return")) == 2 and [e["reason"] for e in rec.of("finish")] == ["stopped"]
    state = getattr(info.value, "state", None)
    if state is not None:  # the last good state: the cut round never reached the folder
        assert not any(isinstance(m, ToolMessage) for m in state["messages"])
        assert not any(isinstance(m, AssistantMessage) and m.tool_calls for m in state["messages"])


def test_nothing_under_graph_imports_the_course():
    import ast
    from pathlib import Path

    import mingraph_lite

    root = Path(mingraph_lite.__file__).parent
    for folder in ("graph",):  # llms/factory.py is the house work's (issue 15)
        for path in (root / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                    assert not any("course" in n for n in names), f"{path.name} imports the course: {names}"
