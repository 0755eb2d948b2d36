"""Claims notebook 03 makes in prose, checked here so the notebook stays within its time (issue 21: pacing)."""

from __future__ import annotations

from mingraph_lite import Agent, StepLimitReached
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, looping_manager, three_round_manager
from mingraph_lite.course.weather import weather_registry


def _cards(llm, max_steps=10):
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=max_steps)
    try:
        agent.run({"question": QUESTION})
    except StepLimitReached:
        pass
    return [card for card, _ in agent.cards], len(llm.calls)


def test_every_model_call_is_one_calling_model_card_and_the_ceiling_adds_one_that_makes_no_call():
    answered, calls = _cards(three_round_manager())
    assert answered.count("CallingModel") == calls == 3 and answered[-1] == "Finished"
    stopped, calls = _cards(looping_manager(), max_steps=3)
    assert stopped.count("CallingModel") == calls + 1 == 4 and stopped[-1] == "Finished"
    import pytest

    with pytest.raises(StepLimitReached):  # the Finished card with no answer raises: no fake answer
        Agent(looping_manager(), weather_registry(), SYSTEM_PROMPT, max_steps=3).run({"question": QUESTION})


def test_langgraph_tool_node_default_sends_bad_arguments_back_and_raises_a_failing_tool():
    """03 says: ToolNode's handle_tool_errors=True answers every failure; the installed default splits as we do."""
    import pytest

    prebuilt = pytest.importorskip("langgraph.prebuilt")
    from importlib.metadata import version
    # 03 names the versions these checks ran on: LangGraph 1.2, langgraph-prebuilt 1.1
    assert version("langgraph").startswith("1.2.") and version("langgraph-prebuilt").startswith("1.1.")
    from langchain_core.messages import AIMessage
    from langgraph.graph import START, MessagesState, StateGraph

    def get_forecast(city: str, days: int) -> str:
        """Get the forecast (its service is down).

        Args:
            city: The city name.
            days: How many days ahead.
        """
        raise ConnectionError("forecast service down")

    def run(args, **options):
        graph = StateGraph(MessagesState)
        graph.add_node("tools", prebuilt.ToolNode([get_forecast], **options))
        graph.add_edge(START, "tools")
        reply = AIMessage("", tool_calls=[{"name": "get_forecast", "args": args, "id": "t1"}])
        return graph.compile().invoke({"messages": [reply]})["messages"][-1]

    assert run({"city": "Oslo", "days": "three"}).status == "error"   # a bad slip: back to the model
    with pytest.raises(ConnectionError):                               # a failing tool: up to the caller
        run({"city": "Oslo", "days": 3})
    down = run({"city": "Oslo", "days": 3}, handle_tool_errors=True)   # every failure back to the model
    assert down.status == "error" and "service down" in down.content and "Please fix your mistakes." in down.content

    def lookup(city: str) -> str:
        """Look a city up.

        Args:
            city: The city name.
        """
        raise ValueError(f"unknown city {city!r}")  # the tool itself refuses an argument: ours sends that back

    graph = StateGraph(MessagesState)
    graph.add_node("tools", prebuilt.ToolNode([lookup]))
    graph.add_edge(START, "tools")
    reply = AIMessage("", tool_calls=[{"name": "lookup", "args": {"city": "Atlantis"}, "id": "t2"}])
    with pytest.raises(ValueError):  # LangGraph's default sends it up: "close to our split but not the same"
        graph.compile().invoke({"messages": [reply]})


def test_the_packages_desk_and_stop_are_what_03_names():
    """03 says: the package's desk `_Run` holds the memory, the tool specs and `announce`; `_Finished` carries why
    the run ended; a failing tool is wrapped in `_Stopped`, and every open slip is answered before its error goes up."""
    import dataclasses

    import pytest

    from mingraph_lite import ScriptedLLM, ToolRegistry, agents

    assert {"memory", "tools", "announce"} <= {f.name for f in dataclasses.fields(agents._Run)}
    assert "reason" in {f.name for f in dataclasses.fields(agents._Finished)}

    def down(city: str) -> str:
        """Down.

        Args:
            city: The city name.
        """
        raise ConnectionError("service down")

    menu = ToolRegistry()
    menu.add(down)
    wrapped = []
    original = agents._RunningTools.run

    def spy(self, run):
        try:
            return original(self, run)
        except BaseException as e:
            wrapped.append(type(e))
            raise

    llm = ScriptedLLM([[("down", {"city": "Paris"}), ("down", {"city": "Oslo"})]], name="scripted: two slips")
    agent = Agent(llm, menu, SYSTEM_PROMPT)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agents._RunningTools, "run", spy)
        with pytest.raises(ConnectionError):
            agent.run({"question": QUESTION})
    assert wrapped == [agents._Stopped]
    messages = agent.memory.messages()
    asked = {c.id for m in messages for c in getattr(m, "tool_calls", ())}
    assert asked and asked == {m.tool_call_id for m in messages if m.role == "tool"}


def test_the_packages_errands_card_answers_a_bad_slip_with_what_to_fix_and_the_run_goes_on():
    """03 says the package's `_RunningTools` sends a slip filled in wrong back to the model, as our card does."""
    from mingraph_lite import ScriptedLLM

    fixer = ScriptedLLM([[("to_fahrenheit", {"celsius": "18"})], [("to_fahrenheit", {"celsius": 18})], "64°F."])
    agent = Agent(fixer, weather_registry(), SYSTEM_PROMPT)
    assert agent.run({"question": "18°C in Fahrenheit?"})["answer"] == "64°F." and len(fixer.calls) == 3
    answers = [m for m in agent.memory.messages() if m.role == "tool"]
    assert [m.is_error for m in answers] == [True, False] and "Please fix your mistakes" in answers[0].content


def test_a_failing_tool_stops_the_agent_outside_the_cards_and_every_open_slip_is_answered_first():
    """03 says the Agent handles a failure outside the cards (its `_stop`), answering every open slip before the
    error goes up. The stop is a BaseException, so a tool's own `except Exception` cannot swallow it."""
    from lessons.errands import flaky_weather, two_city_manager
    from lessons.folders import unanswered
    from mingraph_lite import agents

    assert issubclass(agents._Stopped, BaseException) and not issubclass(agents._Stopped, Exception)
    service, flaky = flaky_weather()
    agent = Agent(two_city_manager("Paris", "Tokyo", runs=2), flaky, SYSTEM_PROMPT)
    service["up"] = False
    try:
        agent.run({"question": QUESTION})
    except ConnectionError:
        pass
    else:
        raise AssertionError("the failing tool's error must reach the caller")
    folder = agent.memory.messages()
    assert [m for m in folder if getattr(m, "is_error", False)] and not unanswered(folder)


def test_question_answers_are_read_as_a_learner_writes_them():
    """Round 20's reader: "B", "b " and 5.0 were refused for their form; the same answers are now judged."""
    from lessons.exercises import verdict
    from lessons.reference import reference

    assert verdict("03.Q2", " B ").status == verdict("03.Q2", reference("03.Q2")).status == "passed"
    assert verdict("03.Q1", float(reference("03.Q1"))).status == "passed"
    assert verdict("03.Q1", float(reference("03.Q1")) + 0.5).status == "not yet"


def test_a_loop_with_a_for_loop_before_its_while_is_judged_on_its_while(tmp_path, monkeypatch):
    """03.2's note rule watches each pass of the learner's main loop: a small for loop ahead of it must not hide it."""
    import importlib
    import inspect

    from lessons.exercises import verdict
    from lessons.reference import reference

    source = inspect.getsource(reference("03.2")).replace('"""The notebook\'s own answer to 03.2', '"""Mine')
    source = source.replace("    while situation", "    for _ in range(1):\n        step += 0\n    while situation", 1)
    (tmp_path / "mine032.py").write_text("from mingraph_lite import *\nfrom mingraph_lite.course.scripts import "
                                         "SYSTEM_PROMPT\nfrom mingraph_lite.course.weather import WEATHER\n\n\n"
                                         "def knows(city):\n    return city.strip().lower() in {n.lower() for n in "
                                         "WEATHER}\n\n\n" + source)
    monkeypatch.syspath_prepend(str(tmp_path))
    mine = importlib.import_module("mine032").sticky_note_loop_with_human
    assert verdict("03.2", mine).status == "passed", str(verdict("03.2", mine))
