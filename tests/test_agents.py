"""The Agent: the loop, its situations (cards), its ways out, and listeners that cannot change a run."""

from __future__ import annotations

import io
import logging
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import (
    QUESTION,
    SYSTEM_PROMPT,
    four_round_manager,
    looping_manager,
    three_round_manager,
    wrong_tokyo_manager,
)
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ScriptExhausted, StepLimitReached
from mingraph_lite.llms.scripted import ScriptedLLM, word_count
from mingraph_lite.memory import KeepAll, LastN, Summarise
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.observers.base import HOOKS, Observer
from mingraph_lite.observers.console import ConsoleLogger
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder, read_trace
from mingraph_lite.steps import Sequence

ANSWER = "Paris: 64°F, Tokyo: 75°F"
ROUND_TRIP = ["step_start", "model_reply"]


def one_call_round():
    return ROUND_TRIP + ["tool_call", "tool_return"]


def two_call_round():
    return ROUND_TRIP + ["tool_call", "tool_return"] * 2


def assert_conversation_valid(messages):
    """What a provider checks: every tool call answered exactly once, after its asking message."""
    asked: dict[str, int] = {}
    answers: Counter = Counter()
    for i, m in enumerate(messages):
        if isinstance(m, AssistantMessage):
            for c in m.tool_calls:
                assert c.id not in asked, f"call id {c.id} used twice"
                asked[c.id] = i
        if isinstance(m, ToolMessage):
            assert asked.get(m.tool_call_id, i) < i, f"answer {m.tool_call_id} without its tool call before it"
            answers[m.tool_call_id] += 1
    assert answers == Counter(asked.keys()), f"tool calls answered {dict(answers)}, asked {list(asked)}"


def weather_agent(llm, **kwargs):
    return Agent(llm, weather_registry(), SYSTEM_PROMPT, **kwargs)


# --- the scripted Paris/Tokyo runs -----------------------------------------------------------------------

@pytest.mark.parametrize("manager, rounds, expected", [
    (four_round_manager, 4, ["run_start", *two_call_round(), *one_call_round(), *one_call_round(),
                             *ROUND_TRIP, "finish"]),
    (three_round_manager, 3, ["run_start", *two_call_round(), *two_call_round(), *ROUND_TRIP, "finish"]),
])
def test_paris_tokyo_runs(manager, rounds, expected):
    recorder, llm = EventRecorder(), manager()
    agent = weather_agent(llm, observers=[recorder])
    assert agent.run({"question": QUESTION}) == {"answer": ANSWER}
    assert recorder.names() == expected
    assert len(llm.calls) == rounds
    assert [e["step"] for e in recorder.of("step_start")] == list(range(1, rounds + 1))
    assert recorder.events[-1] == {"run": 1, "step": rounds, "event": "finish", "answer": ANSWER,
                                   "reason": "answered"}
    returns = [e["content"] for e in recorder.of("tool_return")]
    assert returns == ["18", "24", "64", "75"]
    conversation = agent.memory.messages()
    assert conversation[0] == SystemMessage(SYSTEM_PROMPT) and conversation[1] == UserMessage(QUESTION)
    assert conversation[-1] == AssistantMessage(ANSWER)
    assert_conversation_valid(conversation)
    # each model call read the whole conversation as it was then, and the tool specs
    for messages, tools in llm.calls:
        assert conversation[:len(messages)] == messages
        assert [t["function"]["name"] for t in tools] == ["get_weather", "to_fahrenheit"]


def test_wrong_tokyo_manager_answers_celsius_as_fahrenheit_with_its_thinking():
    recorder = EventRecorder()
    agent = weather_agent(wrong_tokyo_manager(), observers=[recorder])
    assert agent.run({"question": QUESTION}) == {"answer": "Paris: 64°F, Tokyo: 24°F"}
    final = recorder.of("model_reply")[-1]
    assert "already in Fahrenheit" in final["reasoning"]
    # every answer was right: the mistake is in the final reasoning, not in a tool
    assert [e["content"] for e in recorder.of("tool_return")] == ["18", "24", "64"]
    assert "reasoning" not in str(agent.memory.messages())  # thinking stays on the envelope


def test_cards_alternate_and_end_with_finished():
    agent = weather_agent(four_round_manager())
    agent.run({"question": QUESTION})
    names = [name for name, _ in agent.cards]
    assert names == ["CallingModel", "RunningTools"] * 3 + ["CallingModel", "Finished"]
    sizes = [size for _, size in agent.cards]
    assert sizes == sorted(sizes)  # the conversation only grows
    assert sizes[-1] == len(agent.memory.messages())
    agent.llm = three_round_manager()
    agent.run({"question": QUESTION})
    assert [n for n, _ in agent.cards] == ["CallingModel", "RunningTools"] * 2 + ["CallingModel", "Finished"]


# --- the step limit --------------------------------------------------------------------------------------

@settings(max_examples=10, deadline=None)
@given(st.integers(1, 8))
def test_a_never_stopping_manager_hits_the_limit_after_exactly_max_steps_calls(max_steps):
    recorder, llm = EventRecorder(), looping_manager()
    agent = weather_agent(llm, observers=[recorder], max_steps=max_steps)
    with pytest.raises(StepLimitReached) as info:
        agent.run({"question": QUESTION})
    assert len(llm.calls) == max_steps
    assert info.value.steps == max_steps
    assert str(max_steps) in str(info.value)
    assert recorder.names().count("step_start") == max_steps
    assert recorder.events[-1]["event"] == "finish"
    assert (recorder.events[-1]["answer"], recorder.events[-1]["reason"]) == (None, "step limit")
    assert recorder.names().count("finish") == 1
    assert_conversation_valid(agent.memory.messages())
    assert agent.cards[-1][0] == "Finished"


def test_default_max_steps_is_ten():
    llm = looping_manager()
    with pytest.raises(StepLimitReached):
        weather_agent(llm).run({"question": QUESTION})
    assert len(llm.calls) == 10


@pytest.mark.parametrize("max_steps", [0, -1, 2.5, "3"])
def test_max_steps_must_be_a_positive_int(max_steps):
    with pytest.raises(ValueError, match="max_steps"):
        weather_agent(looping_manager(), max_steps=max_steps)


# --- bad tool calls are answered and the run goes on ----------------------------------------------------------

BAD_CALLS = [  # (tool call, a phrase the answer must contain so the model knows what to fix)
    (ToolCall("b1", "get_forecast", {"city": "Paris"}), "get_weather, to_fahrenheit"),
    (ToolCall("b2", "__import__('os').system('ls')", {}), "unknown tool"),
    (ToolCall("b3", "to_fahrenheit", '{"celsius": 18'), "not valid JSON"),
    (ToolCall("b4", "to_fahrenheit", "[18]"), "JSON object"),
    (ToolCall("b5", "to_fahrenheit", {}), "missing argument 'celsius'"),
    (ToolCall("b6", "to_fahrenheit", {"celsius": 18, "unit": "C"}), "unexpected argument 'unit'"),
    (ToolCall("b7", "to_fahrenheit", {"celsius": "18"}), "valid number"),
    (ToolCall("b8", "to_fahrenheit", {"celsius": True}), "valid number"),
    (ToolCall("b9", "to_fahrenheit", '{"celsius": NaN}'), "finite"),
    (ToolCall("b10", "to_fahrenheit", {"celsius": float("inf")}), "finite"),
    (ToolCall("b11", "get_weather", {"city": "Atlantis"}), "known cities: Paris, Tokyo"),
    (ToolCall("b12", "get_weather", {"town": "Paris"}), "missing argument 'city'"),
]


def test_bad_slips_of_every_kind_are_answered_with_what_to_fix_and_the_run_goes_on():
    def final(messages, tools):
        errors = [m for m in messages if isinstance(m, ToolMessage) and m.is_error]
        return f"I saw {len(errors)} errors"

    llm = ScriptedLLM([[bad for bad, _ in BAD_CALLS], [("to_fahrenheit", {"celsius": 18})], final])
    recorder = EventRecorder()
    agent = weather_agent(llm, observers=[recorder])
    assert agent.run({"question": QUESTION}) == {"answer": f"I saw {len(BAD_CALLS)} errors"}
    assert len(llm.calls) == 3
    answers = {m.tool_call_id: m for m in agent.memory.messages() if isinstance(m, ToolMessage)}
    for bad, phrase in BAD_CALLS:
        answer = answers[bad.id]
        assert answer.is_error, bad
        assert answer.content.startswith("Error: ")
        assert phrase in answer.content, (bad, answer.content)
    assert answers["call_2_1"] == ToolMessage("64", "call_2_1", name="to_fahrenheit")
    assert recorder.names().count("tool_error") == 0  # the model's tool calls are not tool failures
    assert recorder.events[-1]["reason"] == "answered"
    assert_conversation_valid(agent.memory.messages())


# --- a failing tool -------------------------------------------------------------------------------------

FAILURE = ConnectionError("weather service down")


def failing_registry():
    registry = weather_registry()

    @registry.add
    def get_forecast(city: str) -> str:
        """Tomorrow's weather for a city."""
        raise FAILURE

    return registry


def test_a_failing_tool_answers_every_slip_once_reraises_unchanged_and_the_agent_runs_again():
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_forecast", {"city": "Paris"}),
                        ("get_weather", {"city": "Tokyo"})]])
    recorder = EventRecorder()
    agent = Agent(llm, failing_registry(), SYSTEM_PROMPT, observers=[recorder])
    with pytest.raises(ConnectionError) as info:
        agent.run({"question": QUESTION})
    assert info.value is FAILURE
    conversation = agent.memory.messages()
    assert_conversation_valid(conversation)
    answers = [m for m in conversation if isinstance(m, ToolMessage)]
    assert [a.tool_call_id for a in answers] == ["call_1_1", "call_1_2", "call_1_3"]
    assert answers[0] == ToolMessage("18", "call_1_1", name="get_weather")
    assert answers[1].is_error and answers[1].content == "Error: tool failed: weather service down"
    assert answers[2].is_error and "not run" in answers[2].content  # never run after the failure
    assert recorder.names()[-5:] == ["tool_call", "tool_error", "tool_return", "tool_return", "finish"]
    error = recorder.of("tool_error")[0]
    assert (error["error_type"], error["error"], error["call"]["name"]) == (
        "ConnectionError", "weather service down", "get_forecast")
    assert (recorder.events[-1]["answer"], recorder.events[-1]["reason"]) == (None, "tool failed")

    # The same agent, same conversation, runs again: the next model call reads a conversation a provider accepts.
    agent.llm = ScriptedLLM(["Sorry, the forecast is unavailable."])
    assert agent.run({"question": "Try again?"}) == {"answer": "Sorry, the forecast is unavailable."}
    read, _ = agent.llm.calls[0]
    assert_conversation_valid(read)
    assert read[:len(conversation)] == conversation and read[-1] == UserMessage("Try again?")
    assert recorder.events[-1]["run"] == 2


def test_an_interrupted_tool_still_leaves_the_folder_valid():
    registry = weather_registry()

    @registry.add
    def slow(city: str) -> str:
        """A slow lookup the learner interrupts."""
        raise KeyboardInterrupt

    agent = Agent(ScriptedLLM([[("slow", {"city": "Paris"}), ("get_weather", {"city": "Paris"})]]),
                  registry, SYSTEM_PROMPT)
    with pytest.raises(KeyboardInterrupt):
        agent.run({"question": QUESTION})
    assert_conversation_valid(agent.memory.messages())


def test_a_failing_model_is_announced_and_propagates():
    recorder = EventRecorder()
    agent = weather_agent(ScriptedLLM([]), observers=[recorder])
    with pytest.raises(ScriptExhausted):
        agent.run({"question": QUESTION})
    assert recorder.events[-1]["event"] == "finish" and recorder.events[-1]["answer"] is None


# --- listeners cannot change a run ----------------------------------------------------------------------

class Broken(Observer):
    """Raises on every hook, and counts how often it was asked."""

    def __init__(self):
        self.heard = 0

    def __getattribute__(self, name):
        if name in HOOKS:
            def hook(*args):
                object.__setattr__(self, "heard", object.__getattribute__(self, "heard") + 1)
                raise RuntimeError(f"listener broke in {name}")
            return hook
        return object.__getattribute__(self, name)


def messages_after_run(observers, manager=four_round_manager, **kwargs):
    agent = weather_agent(manager(), observers=observers, **kwargs)
    try:
        result = agent.run({"question": QUESTION})
    except StepLimitReached as e:
        result = e.steps
    return result, agent.memory.messages(), [n for n, _ in agent.cards]


@pytest.mark.parametrize("manager, kwargs", [(four_round_manager, {}), (three_round_manager, {}),
                                             (wrong_tokyo_manager, {}), (looping_manager, {"max_steps": 3})])
def test_no_listeners_three_listeners_or_a_broken_one_give_equal_runs(manager, kwargs, tmp_path, caplog):
    alone = messages_after_run([], manager, **kwargs)
    recorder = EventRecorder()
    three = messages_after_run([recorder, ConsoleLogger(io.StringIO()), TraceRecorder(tmp_path / "t.jsonl")],
                             manager, **kwargs)
    broken = Broken()
    with caplog.at_level(logging.WARNING):
        with_broken = messages_after_run([broken, Broken()], manager, **kwargs)
    assert alone == three == with_broken
    assert broken.heard == len(recorder.events)  # it was asked every time, and failed every time
    assert "listener broke" in caplog.text or "failed in on_" in caplog.text


def test_a_broken_listener_does_not_silence_the_others():
    recorder = EventRecorder()
    weather_agent(four_round_manager(), observers=[Broken(), recorder, Broken()]).run({"question": QUESTION})
    assert recorder.names()[-1] == "finish" and len(recorder.events) == 18


def test_strict_reraises_a_listener_failure():
    agent = weather_agent(four_round_manager(), observers=[Broken()], strict=True)
    with pytest.raises(RuntimeError, match="listener broke in on_run_start"):
        agent.run({"question": QUESTION})


def test_a_strict_listener_stopping_mid_round_leaves_every_slip_answered():
    class FailsOnToolCall(Observer):
        def on_tool_call(self, call):
            raise RuntimeError("audit log unavailable")

    agent = weather_agent(four_round_manager(), observers=[FailsOnToolCall()], strict=True)
    with pytest.raises(RuntimeError, match="audit log unavailable"):
        agent.run({"question": QUESTION})
    asked = [c.id for m in agent.memory.messages() if isinstance(m, AssistantMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    assert asked and sorted(asked) == sorted(answered)
    assert all(m.is_error for m in agent.memory.messages() if isinstance(m, ToolMessage))


def test_listener_without_some_hooks_is_fine():
    class OnlyFinish:
        def __init__(self):
            self.finished = []

        def on_finish(self, answer, reason):
            self.finished.append((answer, reason))

    listener = OnlyFinish()
    weather_agent(three_round_manager(), observers=[listener]).run({"question": QUESTION})
    assert listener.finished == [(ANSWER, "answered")]


# --- memory ownership ----------------------------------------------------------------------------------

def test_two_agents_built_without_memory_do_not_share_one():
    first, second = weather_agent(four_round_manager()), weather_agent(three_round_manager())
    assert first.memory is not second.memory
    assert isinstance(first.memory, KeepAll)
    first.run({"question": QUESTION})
    assert second.memory.messages() == [SystemMessage(SYSTEM_PROMPT)]
    second.run({"question": QUESTION})
    assert len(first.memory.messages()) == 10 and len(second.memory.messages()) == 9


def test_a_given_memory_is_used():
    memory = LastN(SYSTEM_PROMPT, 50)
    agent = weather_agent(four_round_manager(), memory=memory)
    agent.run({"question": QUESTION})
    assert agent.memory is memory and memory.messages()[-1] == AssistantMessage(ANSWER)


# --- the Agent is a Step ------------------------------------------------------------------------------

def test_agent_inside_a_sequence():
    class Shout:
        def run(self, state):
            return {"loud": state["answer"].upper(), "question_seen": state["question"]}

    pipeline = Sequence([weather_agent(three_round_manager()), Shout()])
    result = pipeline.run({"question": QUESTION, "kept": 1})
    assert result == {"question": QUESTION, "kept": 1, "answer": ANSWER, "loud": ANSWER.upper(),
                      "question_seen": QUESTION}


@pytest.mark.parametrize("state", [{}, {"question": ""}, {"question": "   "}, {"question": 42},
                                   {"text": QUESTION}, QUESTION, None])
def test_invalid_input_is_a_value_error_naming_the_shape(state):
    agent = weather_agent(four_round_manager())
    with pytest.raises(ValueError, match="question"):
        agent.run(state)
    assert agent.memory.messages() == [SystemMessage(SYSTEM_PROMPT)]  # nothing half-added


def test_repr_names_the_tools():
    assert "get_weather" in repr(weather_agent(four_round_manager()))


def test_a_strict_listener_failing_mid_batch_with_a_failing_memory_keeps_the_original_error():
    # The case: the strict listener fails on the first answer, and the memory then fails once
    # while the clean-up answers the second tool call. Every tool call still ends with one answer, every message
    # in the conversation was announced once, and the listener's error is the one raised.
    audit_down = RuntimeError("audit log unavailable")

    class FailsOnFirstAnswer(Observer):
        def on_tool_return(self, result):
            if result.tool_call_id == "call_1":
                raise audit_down

    class FailsOnce(KeepAll):
        failed = False

        def add(self, message):
            if isinstance(message, ToolMessage) and message.tool_call_id == "call_2" and not self.failed:
                self.failed = True
                raise OSError("disk full")
            super().add(message)

    recorder = EventRecorder()
    llm = ScriptedLLM([[ToolCall("call_1", "get_weather", {"city": "Paris"}),
                        ToolCall("call_2", "get_weather", {"city": "Tokyo"})]])
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, memory=FailsOnce(SYSTEM_PROMPT),
                  observers=[recorder, FailsOnFirstAnswer()], strict=True)
    with pytest.raises(RuntimeError) as info:
        agent.run({"question": QUESTION})
    assert info.value is audit_down
    answers = [m for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in answers] == ["call_1", "call_2"]
    assert "not run, because the run stopped (RuntimeError)" in answers[1].content
    heard = [e["tool_call_id"] for e in recorder.of("tool_return")]
    assert heard == ["call_1", "call_2"]  # the clean-up's answer was announced too, exactly once
    assert [e["reason"] for e in recorder.of("finish")] == ["stopped"]


def test_two_calls_with_one_id_get_one_answer_and_neither_runs():
    ran = []
    registry = weather_registry()
    llm = ScriptedLLM([[ToolCall("same", "get_weather", {"city": "Paris"}),
                        ToolCall("same", "get_weather", {"city": "Tokyo"}),
                        ToolCall("other", "get_weather", {"city": "Oslo"})], "done"])
    agent = Agent(llm, registry, SYSTEM_PROMPT, observers=[EventRecorder()])
    agent._announce = lambda hook, *args: ran.append(hook)  # count announcements without a listener
    assert agent.run({"question": QUESTION}) == {"answer": "done"}
    answers = [m for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in answers] == ["same", "other"]
    assert answers[0].is_error and "2 calls share the id 'same'" in answers[0].content
    assert "send each call with its own id" in answers[0].content and not answers[1].is_error
    assert ran.count("on_tool_call") == 2  # one per call id


def test_an_error_answer_quotes_at_most_a_few_hundred_characters_and_says_how_much_was_cut():
    llm = ScriptedLLM([[ToolCall("c", "get_weather", "x" * 10_000_000)], "done"])
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT)
    agent.run({"question": QUESTION})
    (answer,) = [m for m in agent.memory.messages() if isinstance(m, ToolMessage)]
    assert len(answer.content) < 600
    assert "(9,999,700 more characters cut)" in answer.content and "the limit is 20,000" in answer.content


# --- a memory's own model calls are announced -------------------------------------------------------

def summarising_agent(observers):
    summariser = ScriptedLLM(["a short summary"] * 10, name="scripted: summariser", count_tokens=word_count)
    memory = Summarise(SYSTEM_PROMPT, summariser, keep_last=2, trigger=3)
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})],
                       [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 24})], ANSWER])
    return Agent(llm, weather_registry(), SYSTEM_PROMPT, memory=memory, observers=observers)


def test_summarise_model_calls_are_announced_with_their_tokens_and_reach_the_trace(tmp_path):
    recorder, path = EventRecorder(), tmp_path / "t.jsonl"
    agent = summarising_agent([recorder, TraceRecorder(path)])
    assert agent.run({"question": QUESTION}) == {"answer": ANSWER}
    spent = agent.memory.summary_responses
    heard = recorder.of("memory_call")
    assert len(heard) == len(spent) > 0
    assert [(e["input_tokens"], e["output_tokens"]) for e in heard] == [
        (r.input_tokens, r.output_tokens) for r in spent]
    assert all(e["input_tokens"] > 0 for e in heard)
    assert recorder.names().count("model_reply") == 4  # not a reply of the run
    traced = [e for e in read_trace(path) if e["event"] == "memory_call"]
    assert [e["input_tokens"] for e in traced] == [e["input_tokens"] for e in heard]
    # the message that set off each summary is announced before it
    names = recorder.names()
    assert all(names[i - 1] in ("run_start", "model_reply", "tool_return") for i, n in enumerate(names)
               if n == "memory_call")


def test_a_summariser_that_fails_after_answering_is_still_heard():
    recorder = EventRecorder()
    memory = Summarise(SYSTEM_PROMPT, ScriptedLLM([""], count_tokens=word_count), keep_last=1, trigger=2)
    agent = Agent(three_round_manager(), weather_registry(), SYSTEM_PROMPT, memory=memory, observers=[recorder])
    with pytest.raises(ValueError, match="empty summary"):
        agent.run({"question": QUESTION})
    assert len(recorder.of("memory_call")) == len(memory.summary_responses) == 1
    assert recorder.names()[-1] == "finish"
    assert_conversation_valid(agent.memory.messages())
