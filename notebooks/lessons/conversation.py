"""One fixed conversation, eleven questions in a row on one agent: the memory-strategy comparison.

The model is a scripted stand-in (a small rule-based reader, labelled scripted): it answers only
from what it is read this round. If a temperature it needs is in the folder, it uses it; if not,
it asks ``get_weather`` again. So a memory that forgets costs extra tool rounds, and a question
about the start of the conversation gets a wrong answer when the start is no longer read. Token
counts follow a stated rule (``word_count``: one token per whitespace-separated word), not a tokenizer.
"""

from __future__ import annotations

import inspect
import json
import os
import textwrap
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mingraph_lite.agents
from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.base import LLM, LLMResponse
from mingraph_lite.llms.replay import ReplayLLM
from mingraph_lite.llms.scripted import ScriptedLLM, word_count
from mingraph_lite.memory import KeepAll, LastN, Memory, Summarise
from mingraph_lite.observers.trace import read_trace
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage
from mingraph_lite.observers.base import Observer
from mingraph_lite.course.scripts import SYSTEM_PROMPT, number
from mingraph_lite.course.weather import WEATHER, weather_registry

QUESTIONS = (
    "What's the temperature in Paris?",
    "And in Tokyo?",
    "What about Cairo?",
    "Convert Tokyo and Cairo to Fahrenheit, please.",
    "What's the temperature in London?",
    "And in Oslo?",
    "What about Sydney?",
    "Which is warmest: Tokyo, Cairo or Sydney?",
    "Which is coldest: London, Oslo or Sydney?",
    "Convert London and Oslo to Fahrenheit, please.",
    "Which city did I ask about first?",
)
FIRST_CITY = "Paris"  #: the right answer to the last question
SUMMARY_HEAD = "Summary of the conversation so far:"  # how Summarise labels its summary message
_CELSIUS = re.compile(r"\b(" + "|".join(map(re.escape, WEATHER)) + r") is (-?\d+(?:\.\d+)?)°C")


def cities_in(text: str) -> list[str]:
    """Known city names in ``text``, in the order they appear."""
    found = [(text.find(city), city) for city in WEATHER if city in text]
    return [city for _, city in sorted(found)]


def celsius_read(messages: Sequence[Message]) -> dict[str, float | int]:
    """Every Celsius fact the model can see: answered get_weather slips, and "<City> is N°C" in any text."""
    facts: dict[str, float | int] = {}
    asked: dict[str, str] = {}
    for m in messages:
        if isinstance(m, AssistantMessage):
            asked.update({c.id: c.arguments.get("city", "") for c in m.tool_calls
                          if c.name == "get_weather" and isinstance(c.arguments, dict)})
        if isinstance(m, ToolMessage) and m.tool_call_id in asked and not m.is_error:
            facts[asked[m.tool_call_id]] = number(m.content)
        elif not isinstance(m, ToolMessage):
            facts.update({city: number(value) for city, value in _CELSIUS.findall(m.content)})
    return facts


def current_turn(messages: Sequence[Message]) -> tuple[str, list[Message]]:
    """The latest question read, and the messages since it (this turn's slips and answers).

    A window shorter than one turn can drop the question itself: then the question is ``""``.
    """
    asked = [i for i, m in enumerate(messages) if isinstance(m, UserMessage)]
    if not asked:
        return "", [m for m in messages if not isinstance(m, SystemMessage)]
    last = asked[-1]
    return messages[last].content, list(messages[last + 1:])


def turn_results(turn: Sequence[Message], tool: str) -> list[str]:
    """The successful answer slips of ``tool`` in ``turn``, in order."""
    return [m.content for m in turn if isinstance(m, ToolMessage) and m.name == tool and not m.is_error]


def reader_policy(messages: Sequence[Message], tools: Any) -> Any:
    """The scripted stand-in's whole behaviour: one reply from what it is read this round."""
    question, turn = current_turn(messages)
    if not question:
        return "I can't see your question any more: it is no longer in what I was read."
    if "first" in question:
        for m in messages[:-1]:
            summary = isinstance(m, SystemMessage) and m.content.startswith(SUMMARY_HEAD)
            if isinstance(m, UserMessage) or summary:
                seen = cities_in(m.content)
                if seen:
                    return f"The first city you asked about is {seen[0]}."
        return "I can't tell: the start of our conversation is not in what I was read."
    cities = cities_in(question)
    known = celsius_read(messages)
    if any(city not in known for city in cities):  # look them all up together, so they stay together
        return [("get_weather", {"city": city}) for city in cities]
    if "Fahrenheit" in question:
        converted = turn_results(turn, "to_fahrenheit")
        if not converted:
            return [("to_fahrenheit", {"celsius": known[city]}) for city in cities]
        pairs = zip(cities, converted, strict=False)
        return " and ".join(f"{city} is {number(f)}°F" for city, f in pairs) + "."
    if "warmest" in question or "coldest" in question:
        word, pick = ("warmest", max) if "warmest" in question else ("coldest", min)
        best = pick(cities, key=lambda city: known[city])
        return f"{best} is the {word} at {known[best]}°C."
    return " and ".join(f"{city} is {known[city]}°C" for city in cities) + "."


def conversation_llm(max_calls: int = 60) -> ScriptedLLM:
    """The scripted reader, counting tokens as words (the stated rule, not a tokenizer)."""
    return ScriptedLLM([reader_policy] * max_calls, name="scripted: conversation reader",
                       count_tokens=word_count)


_FACT = re.compile(r"\b(" + "|".join(map(re.escape, WEATHER)) + r") is (-?\d+(?:\.\d+)?)°([CF])")


def _summarise(messages: Sequence[Message], tools: Any) -> str:
    """A scripted summariser that condenses to facts: the first city asked about, and every reading.

    It reads the earlier summary and the transcript ``Summarise`` sends, keeps "<City> is N°C/°F"
    facts from the answers, and drops the questions' wording and the tool chatter.
    """
    text = messages[-1].content
    first = re.search(r"first asked about (\w[\w ]*?)\.", text)
    if first is None:
        asked = [cities_in(line) for line in text.splitlines() if line.startswith("user: ")]
        first_city = next((found[0] for found in asked if found), None)
    else:
        first_city = first.group(1)
    facts = {(city, unit): value for city, value, unit in _FACT.findall(text)}
    known = ", ".join(f"{city} is {value}°{unit}" for (city, unit), value in facts.items())
    head = f"The user first asked about {first_city}. " if first_city else ""
    return head + (f"Known: {known}." if known else "")


def summariser_llm(max_calls: int = 20) -> ScriptedLLM:
    """The scripted model ``Summarise`` calls to condense older messages (its words count too)."""
    return ScriptedLLM([_summarise] * max_calls, name="scripted: summariser", count_tokens=word_count)


@dataclass(frozen=True)
class ConversationRun:
    """The whole conversation under one memory: answers, and tokens per model call."""

    answers: tuple[str | None, ...]
    agent_calls: tuple[tuple[int, int, int], ...]  # (question number, input tokens, output tokens)
    summary_calls: tuple[tuple[int, int, int], ...]  # the summariser's, same shape

    @property
    def agent_tokens(self) -> int:
        return sum(i + o for _, i, o in self.agent_calls)

    @property
    def summary_tokens(self) -> int:
        return sum(i + o for _, i, o in self.summary_calls)

    @property
    def total_tokens(self) -> int:
        return self.agent_tokens + self.summary_tokens

    @property
    def remembers_first_city(self) -> bool:
        return FIRST_CITY in (self.answers[-1] or "")


class _Meter(Observer):
    def __init__(self) -> None:
        self.question, self.calls, self.summaries = 0, [], []

    def on_run_start(self, messages) -> None:
        self.question += 1

    def on_model_reply(self, response) -> None:
        self.calls.append((self.question, response.input_tokens or 0, response.output_tokens or 0))

    def on_memory_call(self, response) -> None:  # a summariser's call, announced by the agent
        self.summaries.append((self.question, response.input_tokens or 0, response.output_tokens or 0))


def show_folder(messages: Sequence[Message]) -> None:
    """Print a folder one message a line: who speaks, and the calls asked for or the slip's call id."""
    for m in messages:
        if getattr(m, "tool_calls", None):
            text = "asks for " + ", ".join(f"{c.name}{c.arguments} [{c.id}]" for c in m.tool_calls)
        elif isinstance(m, ToolMessage):
            text = f"answer slip for [{m.tool_call_id}]: {m.content}"
        else:
            text = m.content if len(m.content) < 60 else m.content[:57] + "..."
        print(f"  {m.role:<9} {text}")


def run_conversation(memory: Memory, *, llm: LLM | None = None, questions: Iterable[str] = QUESTIONS,
                     observers: Iterable[Any] = ()) -> ConversationRun:
    """Ask every question in turn on one agent that reads ``memory``; count every model call's tokens."""
    meter = _Meter()
    agent = Agent(llm or conversation_llm(), weather_registry(), SYSTEM_PROMPT, memory=memory,
                  observers=(meter, *observers))
    answers = [agent.run({"question": question})["answer"] for question in questions]
    return ConversationRun(tuple(answers), tuple(meter.calls), tuple(meter.summaries))


# The real conversation ------------------------------------------------------------------------------------------
# scripts/record_conversation.py asks these questions of a shipped local model under each memory below, once, and
# writes one trace per memory to data/runs/; notebook 10 replays the traces through the same memories.

REAL_QUESTIONS = (
    "What's the temperature in Paris and in Tokyo, in Fahrenheit?",
    "And in Cairo?",
    "Which of the three cities is the warmest?",
    "Which city did I ask about first?",
)
REAL_MAX_STEPS = 3  #: model calls per question: the recording ran on a busy shared machine, so it is kept short
REAL_STRATEGIES = {"keep-all": "KeepAll(SYSTEM_PROMPT)", "last-4": "LastN(SYSTEM_PROMPT, 4)",
                   "summarise-2-4": "Summarise(SYSTEM_PROMPT, <the same model>, keep_last=2, trigger=4)"}


def real_memories(summariser: LLM) -> dict[str, Memory]:
    """The memories of the real conversation, by the name in each trace's file name (fresh ones every call)."""
    return {"keep-all": KeepAll(SYSTEM_PROMPT), "last-4": LastN(SYSTEM_PROMPT, 4),
            "summarise-2-4": Summarise(SYSTEM_PROMPT, summariser, keep_last=2, trigger=4)}


def ask_all(agent: Agent, questions: Iterable[str], llm_for: Any = None) -> list[tuple[str | None, str]]:
    """Ask each question on ``agent``; (answer, how it ended) per question. A question that stops is no answer,
    and the conversation goes on, as a chat would. ``llm_for(k)`` gives the model for question ``k`` (1-based)."""
    ends = []
    for k, question in enumerate(questions, 1):
        if llm_for is not None:
            agent.llm = llm_for(k)
        try:
            ends.append((agent.run({"question": question})["answer"], "answered"))
        except StepLimitReached:
            ends.append((None, "step limit"))
    return ends


RUNS = Path(__file__).resolve().parents[2] / "data" / "runs"
REAL_MODEL = "gemma3-270m"  #: the shipped local model the recorded conversation ran on


def describe_recording(model: str = REAL_MODEL) -> dict:
    """Print what the real conversation's metadata file says (model, packages, settings, command, questions)."""
    about = json.loads((RUNS / f"conversation-{model}.json").read_text(encoding="utf-8"))
    print("model:    ", about["model"], f"({about['weights']})")
    print("packages: ", ", ".join(f"{name} {version}" for name, version in about["packages"].items()))
    print("settings: ", {k: v for k, v in about["settings"].items() if k != "system_prompt"})
    print("recorded: ", about["recorded"], "with:", about["command"])
    print("how:      ", about["how"])
    for k, question in enumerate(REAL_QUESTIONS, 1):
        print(f"  {k}. {question}")
    return about


def compare_on_active_model() -> None:
    """Notebook 10's three memories on the model ``$MINGRAPH_LLM`` names, tokens as its provider reports them.

    With the scripted default there is nothing new to count, and it only says so."""
    spec = os.environ.get("MINGRAPH_LLM", "scripted").strip() or "scripted"
    if spec == "scripted":
        print("active model: scripted; the comparison above is the scripted one. Set MINGRAPH_LLM to a live model "
              "(e.g. ollama:qwen3.5:2b) to count real tokens, as its provider reports them.")
        return
    from mingraph_lite.course.scripts import make_llm

    memories = {"KeepAll": lambda: KeepAll(SYSTEM_PROMPT), "LastN(8)": lambda: LastN(SYSTEM_PROMPT, 8),
                "Summarise(4, 8)": lambda: Summarise(SYSTEM_PROMPT, make_llm(), keep_last=4, trigger=8)}
    for name, make in memories.items():
        live = make_llm()
        label = f"{name:<16} model={getattr(live, 'name', live)}"
        try:
            run = run_conversation(make(), llm=live)
        except StepLimitReached as error:
            print(f"{label}: a question ran out of steps: {error}")
            continue
        print(f"{label} calls={len(run.agent_calls)} total tokens={run.total_tokens} last answer={run.answers[-1]!r}")


def real_trace(strategy: str, model: str = REAL_MODEL) -> Path:
    """Where scripts/record_conversation.py wrote the conversation under ``strategy``."""
    return RUNS / f"conversation-{strategy}-{model}.jsonl"


def replay_conversation(path: str | Path, strategy: str, memory_for: Any = None,
                        read: list | None = None) -> tuple[ConversationRun, list[str]]:
    """Replay a recorded real conversation through the memory it was recorded with (or ``memory_for(summariser)``).

    Each question's replies come from its own run in the trace (``ReplayLLM`` refuses a first folder other than the
    one recorded, and later calls whose newest messages differ), and ``Summarise``'s model calls from the trace's ``memory_call`` events, in order. Returns the run
    (answers, tokens per call as the model counted them) and how each question ended; ``read``, if given, gets
    what each question's calls read (a list of folders per question).
    """
    events = read_trace(path)
    summariser = ReplayLLM(responses=[LLMResponse.from_dict(e) for e in events if e["event"] == "memory_call"])
    memory = memory_for(summariser) if memory_for else real_memories(summariser)[strategy]
    meter = _Meter()
    agent = Agent(ReplayLLM(responses=[]), weather_registry(), SYSTEM_PROMPT, memory=memory, observers=(meter,),
                  max_steps=REAL_MAX_STEPS)
    finished = sum(e["event"] == "finish" for e in events)  # a recording stopped mid-question replays up to it
    replays: list[ReplayLLM] = []

    def replay_of(k: int) -> ReplayLLM:
        replays.append(ReplayLLM.from_trace(path, run=k))
        return replays[-1]

    ends = ask_all(agent, REAL_QUESTIONS[:finished], replay_of)
    if read is not None:
        read.extend([messages for messages, _ in replay.calls] for replay in replays)
    answers = tuple(answer for answer, _ in ends)
    return ConversationRun(answers, tuple(meter.calls), tuple(meter.summaries)), [end for _, end in ends]


def real_trace_summaries(strategy: str) -> list[str]:
    """What the model wrote at each of its summariser calls in the recorded conversation under ``strategy``."""
    return [e["message"]["content"] for e in read_trace(real_trace(strategy)) if e["event"] == "memory_call"]


def first_summary() -> str:
    """What the model wrote at summarise-2-4's first summariser call."""
    return real_trace_summaries("summarise-2-4")[0]


def first_summary_numbers() -> tuple[set[str], set[str]]:
    """The numbers summarise-2-4's first summary states, and the numbers any recorded tool returned."""
    returned = {e["content"] for e in read_trace(real_trace("summarise-2-4")) if e["event"] == "tool_return"}
    return set(re.findall(r"\d+", real_trace_summaries("summarise-2-4")[0])), returned


def where_the_folder_is_read() -> tuple[str, list[str]]:
    """``run_conversation``'s body (no docstring) and the line of the agent's loop that reads the folder."""
    core = textwrap.dedent(inspect.getsource(run_conversation).split('"""')[-1].strip("\n")).rstrip()
    reads = [line.strip() for line in inspect.getsource(mingraph_lite.agents).splitlines()
             if "generate(run.memory.messages()" in line]
    return core, reads


def show_where_the_folder_is_read() -> None:
    core, reads = where_the_folder_is_read()
    print(core, "\n\nand in the agent's loop (mingraph_lite/agents.py), at every model call:\n   ", *reads)
