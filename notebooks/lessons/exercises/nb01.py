"""Checkers for notebook 01 (the sticky-note loop).

Every checker tries the learner's code on inputs the notebook never shows: other functions, other
tools, other managers, other ceilings. The expected results come from the package (``Tool``,
``ScriptedLLM``, ``Agent``), never from numbers written here.
"""

from __future__ import annotations

import inspect
from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.memory import KeepAll
from mingraph_lite.messages import ToolMessage
from mingraph_lite.tools import Tool, ToolRegistry
from mingraph_lite.course.scripts import number, results
from mingraph_lite.course.weather import weather_registry
from . import Hint, exercise

# --- 01.1: a tool's JSON schema from a plain function ------------------------------------------------


def convert_money(amount: float, currency: str = "EUR", round_up: bool = False) -> str:
    """Convert an amount of US dollars into another currency.

    Args:
        amount: How many US dollars.
        currency: The three-letter code of the currency to convert into.
        round_up: Round the result up to a whole unit.
    """
    return f"{amount} {currency} {round_up}"


def count_words(text: str, min_length: int) -> int:
    """Count the words in a text that are at least min_length letters long.

    Args:
        text: The text to count in.
        min_length: The shortest word that counts.
    """
    return len([w for w in text.split() if len(w) >= min_length])


def days_until(date: str) -> int:
    """How many days from today until a date, written as YYYY-MM-DD."""
    return len(date)


SCHEMA_CASES = (convert_money, count_words, days_until)


def _plain(spec: Any) -> dict[str, Any]:
    """What a spec says, without what the check does not ask for (titles, defaults, key order)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("function"), dict):
        raise Hint('return a dict shaped like {"type": "function", "function": {"name": ..., '
                   '"description": ..., "parameters": {...}}}, as registry.tools shows')
    fn = spec["function"]
    params = fn.get("parameters")
    if not isinstance(params, dict):
        raise Hint('"parameters" must be a JSON schema object: {"type": "object", "properties": ..., "required": ...}')
    props = {name: {k: v for k, v in prop.items() if k in ("type", "description")}
             for name, prop in (params.get("properties") or {}).items()}
    return {"type": spec.get("type"), "name": fn.get("name"), "description": fn.get("description"),
            "object": params.get("type"), "properties": props, "required": sorted(params.get("required") or [])}


def _compare_schema(fn: Any, got: dict[str, Any], want: dict[str, Any]) -> None:
    name = fn.__name__
    if got["type"] != "function" or got["object"] != "object":
        raise Hint('the outer "type" is "function" and the parameters\' "type" is "object"')
    if got["name"] != want["name"]:
        raise Hint(f"the tool's name for {name} should be the function's own name (fn.__name__)")
    if got["description"] != want["description"]:
        raise Hint(f"the description of {name}: take the docstring's text before its 'Args:' block, "
                   "on one line (inspect.getdoc helps); the Args lines belong to the arguments")
    if set(got["properties"]) != set(want["properties"]):
        raise Hint(f"{name}: one property per argument of the signature (inspect.signature)")
    for arg, prop in want["properties"].items():
        mine = got["properties"][arg]
        if mine.get("type") != prop["type"]:
            raise Hint(f"{name}, argument {arg!r}: wrong JSON type; JSON Schema has its own type names, "
                       "and int and float are not the same one (look at the types in registry.tools)")
        if mine.get("description") != prop.get("description"):
            raise Hint(f"{name}, argument {arg!r}: its description is its line in the docstring's Args: "
                       "block, without the name (and no description when the docstring has none)")
    if got["required"] != want["required"]:
        raise Hint(f"{name}: 'required' lists exactly the arguments that have no default value")


@exercise("01.1", kind="code", title="a tool's JSON schema from a plain function")
def check_schema_of(schema_of: Any) -> str:
    for fn in SCHEMA_CASES:
        want = _plain(Tool.from_function(fn).spec)
        got = _plain(schema_of(fn))
        _compare_schema(fn, got, want)
    return (f"your schema matches the registry's for {len(SCHEMA_CASES)} functions you had not seen "
            "(str, int, float and bool arguments, with and without defaults and docs)")


# --- 01.4: the loop with a ceiling ----------------------------------------------------------------


def _adding_menu() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.add
    def add(a: int, b: int) -> int:
        """Add two whole numbers.

        Args:
            a: The first number.
            b: The second number.
        """
        return a + b

    return registry


def _adder() -> ScriptedLLM:
    def second(messages, tools):
        return [("add", {"a": number(results(messages, "add")[0]), "b": 4})]

    def final(messages, tools):
        return f"The total is {results(messages, 'add')[-1]}."

    return ScriptedLLM([[("add", {"a": 2, "b": 3})], second, final], name="scripted: adds twice")


def _run_loop(loop: Any, llm: Any, registry: ToolRegistry, prompt: str, question: str, ceiling: int) -> Any:
    try:
        return loop(llm, registry, prompt, question, max_steps=ceiling)
    except StepLimitReached as e:
        return e


@exercise("01.4", kind="code", title="the loop with a ceiling")
def check_capped_loop(loop: Any) -> str:
    llm = _adder()
    got = _run_loop(loop, llm, _adding_menu(), "You add numbers with the add tool.", "What is 2 + 3 + 4?", 5)
    if isinstance(got, StepLimitReached):
        raise Hint("a manager that answers on its third call hit your ceiling of 5: stop only when the "
                   "model has made max_steps calls without answering")
    if got != "The total is 9.":
        raise Hint("return the model's final text (the reply with no slips) as the answer")
    folder = llm.calls[-1][0]
    if not folder or folder[0].role != "system" or folder[0].content != "You add numbers with the add tool.":
        raise Hint("start the folder with SystemMessage(system_prompt), then UserMessage(question)")
    if sum(isinstance(m, ToolMessage) for m in folder) != 2:
        raise Hint("every slip needs its answer slip in the folder: append registry.run(slip) for each")
    for ceiling in (1, 4):
        looping = ScriptedLLM([[("add", {"a": 1, "b": 1})]] * 20, name="scripted: never stops")
        got = _run_loop(loop, looping, _adding_menu(), "You add numbers.", "1 + 1?", ceiling)
        if not isinstance(got, StepLimitReached):
            raise Hint("a manager that never stops must end in StepLimitReached; returning anything "
                       "(None, a note) would be a fake answer")
        if len(looping.calls) != ceiling:
            raise Hint(f"with max_steps={ceiling} your loop made {len(looping.calls)} model calls: "
                       "max_steps counts model calls, exactly")
    quick = ScriptedLLM(["Nothing to add."])
    if _run_loop(loop, quick, _adding_menu(), "You add numbers.", "Hi", 1) != "Nothing to add.":
        raise Hint("with max_steps=1 a manager that answers at once must still get its answer back")
    return "your loop answers when the model does, and stops after exactly max_steps model calls otherwise"


# --- 01.5: the shared mutable default, fixed ------------------------------------------------------


@exercise("01.5", kind="code", title="fix the shared mutable default")
def check_fixed_agent(cls: Any) -> str:
    if not inspect.isclass(cls):
        raise Hint("hand in the class itself (FixedAgent), not an object made from it")
    default = inspect.signature(cls).parameters.get("memory")
    if default is None:
        raise Hint("keep the memory parameter: a caller may still hand in their own folder")
    registry = weather_registry()
    one = cls(ScriptedLLM(["one"]), registry, "You are agent one.")
    one.run("Hello?")
    two = cls(ScriptedLLM(["two"]), registry, "You are agent two.")
    if two.memory is one.memory or len(two.memory) != 0:
        raise Hint("two agents built without a memory still share one folder: build it inside __init__, "
                   "not in the def line")
    if two.memory.messages()[0].content != "You are agent two.":
        raise Hint("build the folder from this agent's own system_prompt")
    mine = KeepAll("A folder the caller made.")
    if cls(ScriptedLLM([]), registry, "You are agent three.", memory=mine).memory is not mine:
        raise Hint("when the caller hands in a memory, use it: only a missing one (`memory is None`) gets a fresh "
                   "folder; a new, empty folder counts as false in `if memory:`")
    return "each agent gets its own folder with its own system prompt, and a folder handed in is used"


# --- 01.3: count the rounds -----------------------------------------------------------------------


def _one_city_at_a_time() -> ScriptedLLM:
    def convert_both(messages, tools):
        return [("to_fahrenheit", {"celsius": number(r)}) for r in results(messages, "get_weather")]

    def final(messages, tools):
        paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit"))
        return f"Paris: {paris}°F, Tokyo: {tokyo}°F"

    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        convert_both, final], name="scripted: one city at a time")


@exercise("01.3", kind="reasoning", title="count the rounds")
def check_rounds(answer: Any) -> str:
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT

    llm = _one_city_at_a_time()
    Agent(llm, weather_registry(), SYSTEM_PROMPT).run({"question": QUESTION})
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of model calls")
    if answer != len(llm.calls):
        raise Hint("count the manager's replies: every reply is one model call, the slips and the final "
                   "answer alike; tool calls are not model calls")
    return f"right: {len(llm.calls)} model calls, for the same 4 errands the three-round manager ran in 3"


# --- 01.2: the folder in Ollama's spelling --------------------------------------------------------


def _lookup_folder() -> list[Any]:
    from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, UserMessage

    slips = (ToolCall("k1", "find_book", {"title": "Dune", "exact": True}), ToolCall("k2", "price_of", {"isbn": "42"}))
    return [SystemMessage("You help in a bookshop."), UserMessage("Do you have Dune, and what does it cost?"),
            AssistantMessage("Let me look.", tool_calls=slips),
            ToolMessage("yes, shelf 4", tool_call_id="k1", name="find_book"),
            ToolMessage("12.50", tool_call_id="k2"),  # an answer slip that does not say its tool's name
            AssistantMessage("We have it on shelf 4, for 12.50.")]


@exercise("01.2", kind="code", title="the folder in Ollama's spelling")
def check_to_ollama(to_ollama: Any) -> str:
    from mingraph_lite.llms.ollama import to_ollama_messages

    folder = _lookup_folder()
    want, got = to_ollama_messages(folder), to_ollama(folder)
    if not isinstance(got, list) or len(got) != len(want):
        raise Hint("return a list with one dict per message in the folder, in order")
    for i, (mine, theirs) in enumerate(zip(got, want, strict=True)):
        role = theirs["role"]
        if mine == theirs:
            continue
        if role == "assistant" and "tool_calls" in theirs:
            if any("id" in call for call in mine.get("tool_calls", [])):
                raise Hint("Ollama's tool calls carry no ticket number: send only "
                           '{"function": {"name": ..., "arguments": {...}}} for each slip')
            raise Hint(f"message {i}: an assistant message with slips is its content plus "
                       '"tool_calls", each {"function": {"name": ..., "arguments": <a dict>}}')
        if role == "tool":
            if "tool_call_id" in mine:
                raise Hint("Ollama pairs an answer slip with its call by tool name and order: send "
                           '"tool_name", not "tool_call_id"')
            raise Hint(f"message {i}: an answer slip may come without its tool's name; find the name by "
                       "its ticket number among the earlier slips")
        raise Hint(f"message {i} ({role}): send just its role and content, spelled as in the wire above")
    return "your folder matches, message for message, what the Ollama adapter sends for a bookshop you had not seen"
