"""What a third fresh reader found in notebooks 10 and 09 stays fixed (issue 21): Summarise's mid-turn guarantee is
stated as it is (a waiting call stays whole with its answers), and 11.Q4's answer is the path a run takes."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import jupytext

from lessons.reference import reference
from mingraph_lite import AssistantMessage, ScriptedLLM, Summarise, ToolCall, ToolMessage, UserMessage

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _notebook_namespace(stem: str) -> dict:
    """Run a notebook's code cells (stubs and unfilled guesses as shipped) and return what they defined."""
    module = ModuleType(f"notebook_{stem}")  # a real module, so a TypedDict's annotations resolve
    sys.modules[module.__name__] = module
    space = module.__dict__
    for cell in jupytext.read(NOTEBOOKS / f"{stem}.py").cells:
        if cell.cell_type == "code":
            exec("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")), space)
    return space


def test_summarise_condensing_mid_turn_keeps_the_waiting_call_with_its_answers():
    calls = tuple(ToolCall(f"c{i}", "get_weather", {"city": city}) for i, city in enumerate(("Oslo", "Lima", "Rome")))
    summariser = ScriptedLLM(["summary"] * 10, name="scripted: summariser (test)")
    memory = Summarise("You help.", summariser, keep_last=1, trigger=2)
    history = [UserMessage("a"), AssistantMessage("b"), UserMessage("Three cities?"), AssistantMessage("", calls),
               *(ToolMessage("18", tool_call_id=call.id, name=call.name) for call in calls)]
    condensed_while_waiting = 0
    for count, message in enumerate(history, 1):
        before = len(memory.summary_responses)
        memory.add(message)
        read = memory.messages()
        answered = [m.tool_call_id for m in read if isinstance(m, ToolMessage)]
        if count > 4:  # the reply asking for three calls has been added: it and every answer so far stay readable
            assert any(isinstance(m, AssistantMessage) and m.tool_calls == calls for m in read)
            assert answered == [call.id for call in calls[:count - 4]]
            condensed_while_waiting += len(memory.summary_responses) > before and count < len(history)
    assert condensed_while_waiting  # it did condense with calls still waiting, so the case was exercised


def test_summarise_on_the_notebooks_conversation_condenses_mid_turn_and_keeps_every_exchange_whole():
    """What notebook 10's WatchedSummarise cell showed, now here: a condensation may leave a call waiting, never an
    answer slip without its call."""
    from lessons.conversation import run_conversation, summariser_llm
    from mingraph_lite.course.scripts import SYSTEM_PROMPT

    class Watched(Summarise):
        def add(self, message):
            before = len(self.summary_responses)
            super().add(message)
            if len(self.summary_responses) > before:
                read = self.messages()
                asked = {c.id for m in read if isinstance(m, AssistantMessage) for c in m.tool_calls}
                answered = {m.tool_call_id for m in read if isinstance(m, ToolMessage)}
                seen.append((sorted(asked - answered), answered <= asked))

    seen: list = []
    run_conversation(Watched(SYSTEM_PROMPT, summariser_llm(), keep_last=4, trigger=8))
    assert len(seen) == 6 and all(whole for _, whole in seen) and any(waiting for waiting, _ in seen)
    assert all(len(waiting) == 1 for waiting, _ in seen if waiting)  # the call kept with its sibling's answer


def test_09_q6_answer_is_the_path_a_run_with_failed_left_set_takes():
    space = _notebook_namespace("11_helpers_and_plans")
    rules = reference("11.3")
    replanner = space["dropping_replanner"](space["ATLANTIS_PLAN"], "Atlantis")

    def keeps_failed(state):
        return {**rules(state, replanner), "failed": state["failed"]}

    graph = space["build_plan_graph"](space["planner_llm"](space["ATLANTIS_PLAN"]), space["executor_llm"](),
                                      keeps_failed)
    out = graph.invoke(space["start"](space["ATLANTIS_TASK"]))
    path = " -> ".join(graph.path)
    assert path == "plan -> execute -> execute -> replan -> execute -> stop"
    assert out["status"] == "needs_attention" and len(out["results"]) == 2 and "Tokyo" in out["results"][-1]
    assert path in reference("11_helpers_and_plans").QUESTIONS["11.Q4"]  # the answer key says the same path
