"""Generated hostile tool calls, fault schedules and histories (hypothesis), with the promises as assertions.

Fixed examples count per test (``max_examples``) and ``derandomize=True``: every CI run tries the same
inputs, so a failure is a failure of the code, not of the dice. ``GENERATED`` adds them up; the
report quotes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from slips import QUESTION, SYSTEM, Heard, assert_conversation_valid, bounded_answers, conversation, counting_registry

from mingraph_lite import Agent, KeepAll, ScriptedLLM, ToolArgsError, ToolCall
from mingraph_lite.errors import ScriptExhausted, StepLimitReached
from mingraph_lite.graph import build_agent_graph, run_agent_graph
from mingraph_lite.memory import Summarise
from mingraph_lite.messages import AssistantMessage, ToolMessage, UserMessage
from mingraph_lite.wire import loads

EXAMPLES = {"registry": 500, "openai": 150, "ollama": 150, "agent": 600, "graph": 400, "summarise": 250}
GENERATED = sum(EXAMPLES.values())


def runs(name: str):
    return settings(max_examples=EXAMPLES[name], derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


# -- hostile tool calls ------------------------------------------------------------------------------------
json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=12)


@st.composite
def nested_text(draw):
    depth = draw(st.integers(1, 3_000))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    inner = draw(st.sampled_from(["1", "[]", '"x"', ""]))
    close = draw(st.booleans())
    return '{"city": ' + opener * depth + inner + (closer * depth if close else "") + "}"


@st.composite
def duplicate_text(draw):
    key = draw(st.sampled_from(["city", "celsius", "x"]))
    a, b = draw(json_leaf), draw(json_leaf)
    return "{" + f"{json.dumps(key)}: {json.dumps(a)}, {json.dumps(key)}: {json.dumps(b)}" + "}"


digits_text = st.integers(90, 6_000).map(lambda n: '{"celsius": ' + "9" * n + "}")
arguments = st.one_of(
    st.fixed_dictionaries({"city": st.text(max_size=10)}), st.fixed_dictionaries({"celsius": st.floats()}),
    json_value, json_value.map(lambda v: json.dumps(v)), st.text(max_size=40), nested_text(), duplicate_text(),
    digits_text, st.binary(max_size=30), st.integers(-(10**120), 10**120).map(lambda n: {"celsius": n}))
names = st.sampled_from(["get_weather", "to_fahrenheit", "nope", "", "get_weather "]) | st.text(max_size=8)
calls = st.builds(ToolCall, id=st.sampled_from(["c1", "c2", "c3"]), name=names, arguments=arguments)


@runs("registry")
@given(call=calls)
def test_any_slip_is_a_valid_call_or_a_fix_answer(call):
    registry, ran = counting_registry()
    try:
        registry.validate(call)
        valid = True
    except ToolArgsError:
        valid = False
    answer = registry.answer(call)
    assert answer.is_error == (not valid) and len(ran) == valid
    bounded_answers([answer])


_OPENAI_BODY: dict = {}


def _openai_llm():
    from mingraph_lite.llms.openai import OpenAILLM

    openai = pytest.importorskip("openai")
    client = openai.OpenAI(api_key="test", base_url="http://openai.test/v1", max_retries=0, http_client=httpx.Client(
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=_OPENAI_BODY["body"]))))
    return OpenAILLM("gpt-test", client=client)


@pytest.fixture(scope="module")
def openai_llm():
    return _openai_llm()


@runs("openai")
@given(name=names, text=st.text(max_size=60) | nested_text() | duplicate_text() | digits_text
       | json_value.map(json.dumps))
def test_the_openai_parser_turns_any_arguments_text_into_an_answerable_slip(openai_llm, name, text):
    _OPENAI_BODY["body"] = {
        "id": "x", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
                     "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": text}}]}}]}
    response = openai_llm.generate([UserMessage("q")], [])
    (call,) = response.message.tool_calls
    registry, _ = counting_registry()
    answer = registry.answer(call)
    bounded_answers([answer])
    assert_conversation_valid([response.message, answer])


_OLLAMA_BODY: dict = {}


@pytest.fixture(scope="module")
def ollama_llm():
    from mingraph_lite.llms.ollama import OllamaLLM

    ollama = pytest.importorskip("ollama")
    client = ollama.Client(host="http://ollama.test:11434", transport=httpx.MockTransport(
        lambda request: httpx.Response(200, content=_OLLAMA_BODY["body"],
                                       headers={"content-type": "application/json"})))
    return OllamaLLM("qwen3:0.6b", client=client)


@runs("ollama")
@given(name=names, raw=json_value.map(json.dumps) | nested_text() | duplicate_text() | digits_text,
       count=st.integers(1, 3))
def test_the_ollama_parser_turns_any_arguments_json_into_answerable_slips(ollama_llm, name, raw, count):
    try:
        loads(raw)
    except ValueError:  # Ollama's server sends JSON: what is not JSON arrives as a JSON string
        raw = json.dumps(raw)
    calls = ", ".join(f'{{"function": {{"name": {json.dumps(name)}, "arguments": {raw}}}}}' for _ in range(count))
    _OLLAMA_BODY["body"] = ('{"model": "m", "done": true, "message": {"role": "assistant", "content": "", '
                            f'"tool_calls": [{calls}]}}}}').encode("utf-8", "surrogatepass")
    response = ollama_llm.generate([UserMessage("q")], [])
    assert len(response.message.tool_calls) == count
    assert len({c.id for c in response.message.tool_calls}) == count  # distinct, made-up call ids
    registry, _ = counting_registry()
    answers = [registry.answer(c) for c in response.message.tool_calls]
    bounded_answers(answers)
    assert_conversation_valid([response.message, *answers])


# -- fault schedules ----------------------------------------------------------------------------------
class ToolFault(Exception):
    pass


class ModelFault(Exception):
    pass


class ListenerFault(Exception):
    pass


class MemoryFault(Exception):
    pass


@dataclass
class Faults:
    """When each part fails (the n-th time it is used; None: never) and what was raised, in order."""

    tool_at: int | None = None
    interrupt: bool = False
    model_at: int | None = None
    listener_at: int | None = None
    strict: bool = False
    memory_at: int | None = None
    fired: list = field(default_factory=list)  # every exception that stops a run, in order
    counts: dict = field(default_factory=dict)
    armed: bool = True

    def hit(self, part: str, at: int | None, error: BaseException, stops: bool = True) -> None:
        self.counts[part] = n = self.counts.get(part, 0) + 1
        if self.armed and n == at:
            if stops:
                self.fired.append(error)
            raise error


@st.composite
def faults_strategy(draw):
    """No fault, one, or two at once (the issue's strict listener with a failing memory among them)."""
    kinds = draw(st.sets(st.sampled_from(["tool", "model", "listener", "memory"]), max_size=2))
    faults = Faults(strict=draw(st.booleans()), interrupt=draw(st.booleans()))
    if "tool" in kinds:
        faults.tool_at = draw(st.integers(1, 3))
    if "model" in kinds:
        faults.model_at = draw(st.integers(1, 4))
    if "listener" in kinds:
        faults.listener_at = draw(st.integers(1, 25))
    if "memory" in kinds:
        faults.memory_at = draw(st.integers(1, 10))
    return faults


good_calls = st.builds(ToolCall, id=st.sampled_from(["c1", "c2", "c3"]),
                       name=st.sampled_from(["get_weather", "to_fahrenheit"]),
                       arguments=st.sampled_from([{"city": "Paris"}, {"celsius": 18}, {"city": 5}, "{"]))
valid_calls = st.builds(lambda call_id, pair: ToolCall(call_id, *pair), st.sampled_from(["c1", "c2", "c3", "c4"]),
                        st.sampled_from([("get_weather", {"city": "Paris"}), ("to_fahrenheit", {"celsius": 18})]))
# Mostly tool calls that run (so tool faults and Ctrl-C get their turn), some careless, some hostile.
any_call = st.one_of(valid_calls, valid_calls, valid_calls, good_calls, calls)
# Up to three rounds of tool calls, then (usually) the answer; a script that runs out is a fault too.
rounds = st.tuples(st.lists(st.lists(any_call, min_size=1, max_size=3), min_size=1, max_size=3),
                   st.sampled_from([["the answer"], ["the answer"], []])).map(lambda t: t[0] + t[1])


class FaultyLLM:
    def __init__(self, script, faults: Faults) -> None:
        self.inner, self.faults = ScriptedLLM(script), faults

    def generate(self, messages, tools):
        self.faults.hit("model", self.faults.model_at, ModelFault("model down"))
        try:
            return self.inner.generate(messages, tools)
        except ScriptExhausted as e:
            self.faults.fired.append(e)
            raise


class FaultyListener:
    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    def _hook(self, *args):
        self.faults.hit("listener", self.faults.listener_at, ListenerFault("listener down"), stops=self.faults.strict)

    on_run_start = on_step_start = on_model_reply = on_tool_call = on_tool_return = on_tool_error = on_finish = _hook


class FaultyMemory(KeepAll):
    def __init__(self, faults: Faults) -> None:
        super().__init__(SYSTEM)
        self.faults = faults

    def add(self, message):
        self.faults.hit("memory", self.faults.memory_at, MemoryFault("memory down"))
        super().add(message)


def tool_fault(faults: Faults):
    def fail(name):
        error = KeyboardInterrupt() if faults.interrupt else ToolFault(f"{name} down")
        faults.hit("tool", faults.tool_at, error)
    return fail


def check_raised(raised, faults: Faults, unwrap=False):
    root = getattr(raised, "cause", None) or raised if unwrap else raised
    if faults.fired:
        assert root is faults.fired[0], (root, faults.fired)  # the error that stopped the run, unchanged
    else:
        assert isinstance(root, StepLimitReached), root


@runs("agent")
@given(script=rounds, faults=faults_strategy(), max_steps=st.integers(1, 5))
def test_the_agent_keeps_every_promise_under_any_fault_schedule(script, faults, max_steps):
    registry, _ = counting_registry(tool_fault(faults))
    heard, llm = Heard(), FaultyLLM(script, faults)
    agent = Agent(llm, registry, SYSTEM, memory=FaultyMemory(faults), max_steps=max_steps, strict=faults.strict,
                  observers=[heard, FaultyListener(faults)])
    try:
        agent.run({"question": QUESTION})
        raised = None
    except BaseException as e:  # KeyboardInterrupt included: it must come out, unchanged
        raised = e
    event(f"agent run ended by {type(raised).__name__ if raised else 'an answer'}")
    messages = agent.memory.messages()
    assert_conversation_valid(messages)  # every call id answered exactly once, right after its call
    bounded_answers(messages)
    assert conversation(messages) == heard.messages  # every message in the conversation announced exactly once
    assert len(heard.finishes) == 1
    if raised is not None:
        check_raised(raised, faults)
    faults.armed, llm.inner = False, ScriptedLLM(["again"])
    assert agent.run({"question": "And now?"}) == {"answer": "again"}  # the same agent runs again
    assert_conversation_valid(agent.memory.messages())


@runs("graph")
@given(script=rounds, faults=faults_strategy(), max_steps=st.integers(1, 5))
def test_the_agent_graph_keeps_every_promise_under_any_fault_schedule(script, faults, max_steps):
    faults.memory_at = None  # the graph's conversation is its state, not a Memory
    registry, _ = counting_registry(tool_fault(faults))
    if not faults.interrupt:  # a failing tool stops the graph run without raising: not an error to expect
        registry_fault = tool_fault(faults)

        def quiet(name):
            try:
                registry_fault(name)
            except ToolFault as e:
                faults.fired.remove(e)
                raise
        registry, _ = counting_registry(quiet)
    heard, llm = Heard(), FaultyLLM(script, faults)
    graph = build_agent_graph(llm, registry, SYSTEM, max_model_steps=max_steps, strict=faults.strict,
                              observers=[heard, FaultyListener(faults)])
    try:
        final = run_agent_graph(graph, QUESTION)
    except BaseException as e:
        event(f"graph run ended by {type(getattr(e, 'cause', None) or e).__name__}")
        assert faults.fired, e
        check_raised(e, faults, unwrap=True)
        state = getattr(e, "state", None)
        if state:  # the last good state, as the engine keeps it: a conversation with no tool call left open
            assert_conversation_valid(state["messages"])
    else:
        event(f"graph run stopped: {final['stop_reason']}")
        assert not faults.fired, faults.fired
        assert_conversation_valid(final["messages"])
        bounded_answers(final["messages"])
        assert conversation(final["messages"]) == heard.messages
        assert len(heard.finishes) == 1 and final["stop_reason"] == heard.finishes[0]
    faults.armed, llm.inner = False, ScriptedLLM(["again"])
    assert run_agent_graph(graph, "And now?")["answer"] == "again"  # the same graph runs again


# -- histories through Summarise ----------------------------------------------------------------------
history_items = st.one_of(
    st.text(min_size=1, max_size=8).map(UserMessage),
    st.text(max_size=8).map(AssistantMessage),
    st.integers(1, 3).map(lambda n: ("round", n)))


def unfold(items):
    out, n = [], 0
    for item in items:
        if isinstance(item, tuple):
            ids = [f"t{n + i}" for i in range(item[1])]
            n += item[1]
            out.append(AssistantMessage("", tuple(ToolCall(i, "get_weather", {"city": "P"}) for i in ids)))
            out.extend(ToolMessage("18", i, name="get_weather") for i in ids)
        else:
            out.append(item)
    return out


summaries = st.sampled_from(["a fine summary", "", "   ", "tools", "raise"])


@runs("summarise")
@given(items=st.lists(history_items, max_size=14), replies=st.lists(summaries, max_size=6),
       keep_last=st.integers(1, 3), extra=st.integers(1, 3))
def test_summarise_never_loses_history_whatever_the_summariser_does(items, replies, keep_last, extra):
    queue = list(replies)

    def summariser(messages, tools):
        reply = queue.pop(0) if queue else "a fine summary"
        if reply == "raise":
            raise ModelFault("summariser down")
        return [("get_weather", {"city": "P"})] if reply == "tools" else reply

    memory = Summarise(SYSTEM, ScriptedLLM([summariser] * 50), keep_last=keep_last, trigger=keep_last + extra)
    for message in unfold(items):
        summary_before, read_before = memory.summary, memory.messages()
        try:
            memory.add(message)
        except (ModelFault, ValueError):
            assert memory.summary == summary_before  # nothing cut, nothing replaced
            assert memory.messages() == [*read_before, message]
        assert memory.history[-1] is message
        assert memory.summary is None or memory.summary.strip()
    assert_conversation_valid(memory.messages())  # a window never separates a call from its answers
