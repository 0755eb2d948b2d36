"""Checkers for notebook 01 (the sticky-note loop).

Every checker tries the learner's code on inputs the notebook never shows: other functions, other
tools, other managers, other ceilings. The expected results come from the package (``Tool``,
``ScriptedLLM``, ``Agent``), never from numbers written here.
"""

from __future__ import annotations

from typing import Any

from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.messages import ToolMessage
from mingraph_lite.tools import Tool, ToolRegistry, _describe
from mingraph_lite.course.scripts import number, results
from mingraph_lite.course.weather import weather_registry
from . import Hint, exercise
from .package_guard import calls_package

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


def split_bill(total: float, people: int, tip_percent: int = 10) -> float:
    """Split a restaurant bill evenly between people,
    after adding a tip on top of the total.

    Args:
        total: The bill before the tip.
        people: How many people share it.
        tip_percent: The tip, in percent of the total.

    Returns:
        Each person's share, in the bill's currency.
    """
    return total * (1 + tip_percent / 100) / people


SCHEMA_CASES = (convert_money, count_words, days_until, split_bill)


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


def _short(text: Any, width: int = 70) -> str:
    return repr(text) if len(repr(text)) <= width else repr(text)[:width - 3] + "..."


def _compare_schema(fn: Any, got: dict[str, Any], want: dict[str, Any]) -> None:
    name = fn.__name__
    if got["type"] != "function" or got["object"] != "object":
        raise Hint('the outer "type" is "function" and the parameters\' "type" is "object"')
    if got["name"] != want["name"]:
        raise Hint(f"the tool's name for {name} should be the function's own name (fn.__name__)")
    if got["description"] != want["description"]:
        raise Hint(f"the description of {name}: got {_short(got['description'])}, want {_short(want['description'])}: "
                   "the docstring's text before its 'Args:' block, on one line (inspect.getdoc helps)")
    if set(got["properties"]) != set(want["properties"]):
        raise Hint(f"{name}: one property per argument of the signature (inspect.signature)")
    for arg, prop in want["properties"].items():
        mine = got["properties"][arg]
        if mine.get("type") != prop["type"] and prop["type"] == "boolean":
            raise Hint(f'{name}, argument {arg!r}: a bool is "boolean" in JSON Schema, not {mine.get("type")!r} '
                       "(Python counts bool as an int; JSON Schema does not)")
        if mine.get("type") != prop["type"]:
            raise Hint(f"{name}, argument {arg!r}: wrong JSON type; JSON Schema has its own type names, "
                       "and int and float are not the same one (look at the types in registry.tools)")
        if "description" not in prop and "description" in mine:
            raise Hint(f"{name}, argument {arg!r} has no line in the docstring's Args: block: leave the description "
                       f"key out of its property (you wrote {_short(mine['description'])})")
        if mine.get("description") != prop.get("description"):
            raise Hint(f"{name}, argument {arg!r}: got {_short(mine.get('description'), 100)}, want "
                       f"{_short(prop.get('description'))}: its line in the docstring's Args: block, without the "
                       "name (the block ends at a blank line or the next section, such as Returns:)")
    if got["required"] != want["required"]:
        raise Hint(f"{name}: 'required' lists exactly the arguments that have no default value")


def _schema_or_hint(schema_of: Any, fn: Any) -> Any:
    try:
        return schema_of(fn)
    except KeyError as e:  # a type looked up by the text of its name: fn.__annotations__ under postponed annotations
        if e.args and e.args[0] in ("str", "int", "float", "bool"):
            raise Hint(f"your code looked up the text {e.args[0]!r}, not the type {e.args[0]}: these functions "
                       "come from a module with `from __future__ import annotations`, where fn.__annotations__ "
                       "holds each type as text; inspect.get_annotations(fn, eval_str=True) (or "
                       "typing.get_type_hints(fn)) turns the text back into the type") from None
        raise


@exercise("01.1", kind="code", title="a tool's JSON schema from a plain function")
def check_schema_of(schema_of: Any) -> str:
    if calls_package(schema_of, (Tool.from_function, Tool.__post_init__, _describe), convert_money):
        raise Hint("your schema_of asks the package to build the schema (ToolRegistry().add, Tool.from_function, "
                   "Tool(...) or its private _describe, called directly or through a copy of the function "
                   "object): that tests the package's code, not yours; build the dict from inspect")
    for fn in SCHEMA_CASES:
        _compare_schema(fn, _plain(_schema_or_hint(schema_of, fn)), _plain(Tool.from_function(fn).spec))
    return (f"your schema gives the registry's names, types, descriptions and required arguments for "
            f"{len(SCHEMA_CASES)} functions you had not seen "
            "(str, int, float and bool arguments, with and without defaults and docs, a two-line summary and "
            "a Returns: section)")


# --- 01.4: a ceiling on errands --------------------------------------------------------------------


def _counting_menu() -> tuple[ToolRegistry, list[int]]:
    """An ``add`` tool that notes every time it runs: the check counts errands by what ran, not by slips."""
    registry, ran = ToolRegistry(), []

    @registry.add
    def add(a: int, b: int) -> int:
        """Add two whole numbers.

        Args:
            a: The first number.
            b: The second number.
        """
        ran.append(a + b)
        return a + b

    return registry, ran


def _adder() -> ScriptedLLM:
    def second(messages, tools):
        return [("add", {"a": number(results(messages, "add")[0]), "b": 4})]

    def final(messages, tools):
        return f"The total is {results(messages, 'add')[-1]}."

    return ScriptedLLM([[("add", {"a": 2, "b": 3})], second, final], name="scripted: adds twice")


ADD_PROMPT = "You add numbers with the add tool."


def _budget_run(loop: Any, llm: Any, budget: int) -> tuple[Any, int, int]:
    """(the answer or the StepLimitReached raised, errands run, model calls made)."""
    registry, ran = _counting_menu()
    try:
        got = loop(llm, registry, ADD_PROMPT, "What is 2 + 3 + 4?", max_tool_calls=budget)
    except StepLimitReached as e:
        got = e
    except Exception as e:  # raised once the budget was spent: the learner's own "gave up", of the wrong kind
        if len(ran) < budget:
            raise
        if len(ran) > budget:
            raise Hint(f"with max_tool_calls={budget} your loop ran {len(ran)} errands and only stopped when "
                       f"{type(e).__name__} came: stop before the errand that would pass the budget") from None
        raise Hint(f"your loop raised {type(e).__name__} when the budget ran out: running out must raise "
                   "StepLimitReached(..., steps=<model calls made>), the one kind of 'gave up' callers catch") from None
    return got, len(ran), len(llm.calls)


def _check_many_rounds(loop: Any, rounds: int = 12) -> None:
    """A manager that passes one slip a reply for ``rounds`` replies needs ``rounds + 1`` model calls: a budget
    of ``rounds`` errands must let it answer, whatever hidden cap on model calls a loop adds."""
    slow = ScriptedLLM([[("add", {"a": 1, "b": 1})]] * rounds + ["Done."], name="scripted: one slip a reply")
    got, errands, calls = _budget_run(loop, slow, rounds)
    if got != "Done.":
        raise Hint(f"a manager that passes one slip a reply for {rounds} replies, with max_tool_calls={rounds}, "
                   f"needs {rounds + 1} model calls; your loop stopped after {calls} model calls and {errands} "
                   "errands: only the errand budget may stop it, so count no model calls at all")


@exercise("01.4", kind="code", title="a ceiling on errands")
def check_errand_budget(loop: Any) -> str:
    if calls_package(loop, (Agent.run,), ScriptedLLM(["ok"]), _counting_menu()[0], "You add.", "Hi", max_tool_calls=1):
        raise Hint("your loop hands the run to the package's Agent, whose ceiling counts model calls, not "
                   "errands: write the loop yourself (llm.generate, registry.run)")
    pair_then_answer = ScriptedLLM([[("add", {"a": 2, "b": 3}), ("add", {"a": 5, "b": 4})], "The total is 9."])
    if isinstance(_budget_run(loop, pair_then_answer, 2)[0], StepLimitReached):
        raise Hint("a manager that ran exactly max_tool_calls errands and then answered must get its answer "
                   "back: stop only before an errand that would pass the budget")
    adder = _adder()
    got, errands, calls = _budget_run(loop, adder, 2)
    if adder.calls and getattr(adder.calls[0][0][0], "content", None) != ADD_PROMPT:
        raise Hint("the model's first message must be the system_prompt you are given (this check passes "
                   "another one), not the course's SYSTEM_PROMPT")
    if isinstance(got, StepLimitReached):
        raise Hint(f"your loop stopped after {calls} model calls and {errands} errands, with max_tool_calls=2: "
                   "the ceiling counts tool calls, not model calls")
    if got != "The total is 9.":
        raise Hint("return the model's final text (the reply with no slips) as the answer")
    _check_many_rounds(loop)
    for budget in (3, 4):
        pairs = ScriptedLLM([[("add", {"a": 1, "b": 1}), ("add", {"a": 2, "b": 2})]] * 20, name="scripted: pairs")
        got, errands, calls = _budget_run(loop, pairs, budget)
        if not isinstance(got, StepLimitReached):
            raise Hint("a manager that never stops must end in StepLimitReached; returning anything "
                       "(None, a note) would be a fake answer")
        if errands > budget:
            raise Hint(f"with max_tool_calls={budget} your loop ran {errands} errands: the ceiling counts tool "
                       "calls, not model calls, and the errand that would pass it is not run")
        if errands < budget:
            raise Hint(f"with max_tool_calls={budget} and two slips a reply your loop ran only {errands} errands: "
                       "run the slips one at a time, and stop at the first one past the budget")
        if got.steps != calls:
            raise Hint(f"StepLimitReached(..., steps=...) says how many model calls were made ({calls} here), "
                       f"not {got.steps!r}")
    return "your loop runs at most max_tool_calls errands, one at a time, and never turns running out into an answer"


# --- 01.2: the folder in Ollama's spelling --------------------------------------------------------


def _lookup_folder() -> list[Any]:
    from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, UserMessage

    slips = (ToolCall("k1", "find_book", {"title": "Dune", "exact": True}), ToolCall("k2", "price_of", {"isbn": "42"}))
    return [SystemMessage("You help in a bookshop."), UserMessage("Do you have Dune, and what does it cost?"),
            AssistantMessage("Let me look.", tool_calls=slips),
            ToolMessage("yes, shelf 4", tool_call_id="k1"),  # answer slips that do not say their tool's name,
            ToolMessage("13.50", tool_call_id="k2"),  # the first for a slip that is not the reply's last
            AssistantMessage("", tool_calls=(ToolCall("k3", "reserve", {"title": "Dune"}),)),  # no text
            ToolMessage("reserved until Friday", tool_call_id="k3", name="reserve"),
            AssistantMessage("We have it on shelf 4, for 13.50, reserved for you until Friday.")]


@exercise("01.2", kind="code", title="the folder in Ollama's spelling")
def check_to_ollama(to_ollama: Any) -> str:
    from mingraph_lite.llms.ollama import to_ollama_messages

    folder = _lookup_folder()
    if calls_package(to_ollama, (to_ollama_messages,), folder):
        raise Hint("your to_ollama calls the adapter's own to_ollama_messages (directly or through a copy of the "
                   "function object): that tests the "
                   "package's spelling, not yours; build each dict yourself")
    want, got = to_ollama_messages(folder), to_ollama(folder)
    if not isinstance(got, list) or len(got) != len(want):
        raise Hint("return a list with one dict per message in the folder, in order")
    for i, (mine, theirs) in enumerate(zip(got, want, strict=True)):
        role = theirs["role"]
        if mine == theirs:
            continue
        if role == "assistant" and "content" not in theirs and "content" in mine:
            raise Hint(f"message {i}: the Ollama adapter leaves \"content\" out when the text is empty, as "
                       "Ollama's official client would (look at the assistant message in round 2 above)")
        if role == "assistant" and "tool_calls" in theirs:
            if any("id" in call for call in mine.get("tool_calls", [])):
                raise Hint("in the Ollama API this course pins, tool calls carry no ticket number: send only "
                           '{"function": {"name": ..., "arguments": {...}}} for each slip')
            raise Hint(f"message {i}: an assistant message with slips is its content (when not empty) plus "
                       '"tool_calls", each {"function": {"name": ..., "arguments": <a dict>}}')
        if role == "tool":
            if "tool_call_id" in mine:
                raise Hint("Ollama pairs an answer slip with its call by tool name and order: send "
                           '"tool_name", not "tool_call_id"')
            raise Hint(f"message {i}: an answer slip may come without its tool's name; find the name by "
                       "its ticket number (tool_call_id) among the earlier slips, not by position: the slip it "
                       "answers need not be the last one")
        if role == "assistant" and "tool_calls" in mine:
            raise Hint(f'message {i}: this assistant message passes no slips, so leave the "tool_calls" key out: '
                       f'send {{"role": "assistant", "content": <its text>}} and nothing else (no empty list)')
        raise Hint(f'message {i} ({role}): send {{"role": "{role}", "content": <its text>}} and no other key')
    return "your folder matches, message for message, what the Ollama adapter sends for a bookshop you had not seen"


# --- questions checked against the code -------------------------------------------------------------


def _fixed_list_answers(steps: int) -> bool:
    """Whether a fixed list of ``steps`` steps (model call, errands, model call, ...) lets the four-round
    manager answer the course question."""
    from mingraph_lite import CallModel, RunTools, Sequence
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager

    llm, registry = four_round_manager(), weather_registry()
    plan = [CallModel(llm, registry, SYSTEM_PROMPT)]
    plan += [RunTools(registry) if i % 2 else CallModel(llm, registry) for i in range(1, steps)]
    return "answer" in Sequence(plan).run({"question": QUESTION})


@exercise("01.Q1", kind="reasoning", title="how long a fixed list must be")
def check_fixed_list(answer: Any) -> str:
    if not isinstance(answer, int) or isinstance(answer, bool) or answer < 1:
        raise Hint("answer with a whole number of steps in the list")
    shortest = next(n for n in range(1, 20) if _fixed_list_answers(n))
    if answer == (shortest + 1) // 2:
        raise Hint("that counts the model calls only: between two model calls the list needs a RunTools step")
    if answer > shortest:
        raise Hint("the list may end with the model call that answers; nothing is left to run after it")
    if answer != shortest:
        raise Hint("a list that short ends while the manager is still passing slips (try it: build the list)")
    return f"right: {shortest} steps, and a manager that wants one more round would need 2 more: a list can't know"


@exercise("01.Q2", kind="reasoning", title="a ceiling below the manager's rounds")
def check_low_ceiling(answer: Any) -> str:
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager

    if not (isinstance(answer, tuple | list) and len(answer) == 2 and isinstance(answer[1], bool)):
        raise Hint("answer with a pair: (model calls, answered?), e.g. (4, True)")
    llm = four_round_manager()
    try:
        Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=3).run({"question": QUESTION})
        answered = True
    except StepLimitReached:
        answered = False
    if answer[1] != answered:
        raise Hint("the four-round manager needs 4 model calls; the ceiling stops it first, and running out "
                   "is never turned into an answer")
    if answer[0] != len(llm.calls):
        raise Hint("max_steps counts model calls, exactly")
    return f"right: {len(llm.calls)} model calls, then StepLimitReached; the caller gets no answer"


@exercise("01.Q5", kind="reasoning", title="model calls under an errand budget")
def check_budget_calls(answer: Any) -> str:
    from lessons.reference import reference

    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Hint("answer with a whole number of model calls")
    llm = ScriptedLLM([[("add", {"a": 1, "b": 1})]] * 20, name="scripted: one slip a reply, never stops")
    try:
        reference("01.4")(llm, _counting_menu()[0], "You add.", "1 + 1?", max_tool_calls=5)
    except StepLimitReached:
        pass
    if answer == len(llm.calls) - 1:
        raise Hint("the loop only learns that a slip is over budget after the model passed it: one more call")
    if answer != len(llm.calls):
        raise Hint("one slip a reply: each model call brings one errand; count the call whose slip is not run")
    return f"right: {len(llm.calls)} model calls, for 5 errands; a budget of errands bounds model calls too"
