"""Notebook 12's router check (12.4) and its checked questions, each verified by a run: a window of 2 on the
scripted manager, the errand on a flaky service, and a graph branch that raises.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from mingraph_lite import Agent, AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.graph import END, START, Send, StateGraph
from ..capstone import SYSTEM_PROMPT, price_manager, price_tools, question_for
from . import Hint, exercise, letter_answer
from .nb12 import _shortest


def _reply(*slips: tuple[str, dict]) -> AssistantMessage:
    return AssistantMessage("", tool_calls=tuple(ToolCall(f"r{i}", name, args) for i, (name, args) in
                                                 enumerate(slips, 1)))


# --- 12.4: the router -------------------------------------------------------------------------------------


def _reply(*slips: tuple[str, dict]) -> AssistantMessage:
    return AssistantMessage("", tool_calls=tuple(ToolCall(f"r{i}", name, args) for i, (name, args) in
                                                 enumerate(slips, 1)))


def _route_cases() -> list[tuple[str, dict[str, Any], Any]]:
    three = _reply(*[("get_price", {"item": "bread", "city": c}) for c in ("Lima", "Oslo", "Nairobi")])
    one = _reply(("to_usd", {"amount": 90, "currency": "KES"}))
    sends = [Send("errand", {"call": slip}) for slip in three.tool_calls]
    earlier = [UserMessage("What does bread cost in Lima and in Oslo and in Nairobi, in US dollars?"), one,
               ToolMessage("90 KES = 0.70 USD", "r1", name="to_usd")]  # a run with an exchange behind it

    def state(last: Message, left: int, stopped: str | None = None, history: tuple = ()) -> dict[str, Any]:
        return {"messages": [*history, last], "failed": [], "model_calls": 1 + bool(history), "calls_left": left,
                "stopped": stopped}

    return [("three ToolCalls and budget to spare", state(three, 5), sends),
            ("three ToolCalls after an earlier exchange", state(three, 2, history=earlier), sends),
            ("three ToolCalls that spend the budget exactly", state(three, 0), sends),
            ("one ToolCall too many for the budget", state(one, -1, history=earlier), "give_up"),
            ("an answer", state(AssistantMessage("Bread costs 2.03 US dollars in Lima."), 5, "answered"), END),
            ("the ceiling reached", state(one, 3, "step limit"), END),
            ("the ceiling reached with the budget overspent", state(three, -2, "step limit", earlier), END),
            ("a tool that failed", state(one, 3, "tool failed"), END)]


@exercise("12.4", kind="code", title="the router: one errand branch per ToolCall, a budget, and the ways out")
def check_route(route: Any) -> str:
    if not callable(route):
        raise Hint("pass your function itself: route, without calling it")
    cases = _route_cases()
    for what, state, want in cases:
        try:
            got = route(state)
        except NotImplementedError:
            raise
        except Exception as e:
            raise Hint(f"for {what}, your router raised {type(e).__name__}: the ToolCalls to send are those of the "
                       "last message, state['messages'][-1] (the first is the question)") from None
        if got == want:
            continue
        if want == END:
            raise Hint(f"for {what}, the run is over (state['stopped'] is {state['stopped']!r}): return END "
                       "whenever stopped is set, whatever the budget or the last message holds")
        if want == "give_up":
            raise Hint(f"for {what} (calls_left is {state['calls_left']}), return 'give_up': the model node already "
                       "took the batch off the budget, so a budget below zero means the batch does not fit")
        if got == "give_up":
            raise Hint(f"for {what} (calls_left is {state['calls_left']}), the batch fits: a budget spent exactly "
                       "is not overspent")
        _wrong_fan_out(what, got, want)
    return f"your router sent each ToolCall on its own branch and found every way out, in {len(cases)} states"


def _wrong_fan_out(what: str, got: Any, want: list[Send]) -> None:
    if not isinstance(got, list) or not all(isinstance(s, Send) for s in got):
        raise Hint(f"for {what}, return one Send('errand', {{'call': call}}) per ToolCall, in a list: a plain label "
                   "runs the node once, on the whole state, not once per ToolCall")
    if len(got) > len(want) and all(isinstance(s.arg, dict) for s in got):
        raise Hint(f"for {what}, you sent {len(got)} branches for the {len(want)} ToolCalls of the last message: "
                   "send only state['messages'][-1].tool_calls; earlier replies' ToolCalls have their answers")
    if len(got) != len(want):
        raise Hint(f"for {what}, you sent {len(got)} branch(es) for the {len(want)} ToolCalls of the last message: one ToolCall "
                   "per branch, for each ToolCall of state['messages'][-1], sent only once the budget is checked")
    raise Hint(f"for {what}, each Send goes to 'errand' with the packet {{'call': the ToolCall}}, in the ToolCalls' order")



class _Pinned:
    """The window rule as a package memory, so the package's Agent can say what a run with it must do."""

    def __init__(self, system_prompt: str, n: int) -> None:
        self.system, self.n, self.history = SystemMessage(system_prompt), n, []

    def add(self, message: Message) -> None:
        self.history.append(message)

    def messages(self) -> list[Message]:
        rest = self.history[1:]
        return [self.system, *self.history[:1], *rest[len(rest) - _shortest(rest, self.n):]]



Q1_CITIES = ("Oslo", "Rome", "Osaka")


def q1_options() -> dict[str, str]:
    """Q1's two written choices: the answer with the whole folder, and the manager's words when it lost the prices."""
    whole = Agent(price_manager("tea", Q1_CITIES), price_tools(), SYSTEM_PROMPT)
    return {"A": whole.run({"question": question_for("tea", Q1_CITIES)})["answer"], "B": "I lost track of the prices."}


@exercise("12.Q1", kind="reasoning", title="a window of 2: what does the manager answer?")
def check_small_window(answer: Any) -> str:
    said = Agent(price_manager("tea", Q1_CITIES), price_tools(), SYSTEM_PROMPT,
                 memory=_Pinned(SYSTEM_PROMPT, 2)).run({"question": question_for("tea", Q1_CITIES)})["answer"]
    truth = next((letter for letter, text in q1_options().items() if text == said), "C")
    if letter_answer(answer) == truth:
        return f"right: the manager said {said!r}"
    raise Hint("the question is pinned, but what does the third call read besides it? Only the newest exchange: "
               "the to_usd ToolCalls and ToolMessages, not which city each price came from")


Q2_DROPPED = (1, 2, 5)  # the requests the service drops, counting from 1


def q2_runs() -> tuple[int, list[str]]:
    """Three ToolCalls in a row, through the notebook's errand, to a service that drops requests 1, 2 and 5."""
    from mingraph_lite import ToolRegistry
    from ..capstone import to_usd
    from ..reference import reference  # the notebook's own errand, as the question is about it

    tries = []

    def flaky_to_usd(amount: float, currency: str) -> str:
        """Convert an amount of money into US dollars (this service drops some requests).

        Args:
            amount: How much money.
            currency: The three-letter currency code.
        """
        tries.append(currency)
        if len(tries) in Q2_DROPPED:
            raise TimeoutError("the rate service did not answer")
        return to_usd(amount, currency)

    registry = ToolRegistry()
    registry.add(flaky_to_usd, name="to_usd")
    calls = [ToolCall(f"q{i}", "to_usd", {"amount": 10, "currency": c}) for i, c in enumerate(("EUR", "JPY", "NOK"))]
    answers = [reference("12.2")(registry, call).content for call in calls]
    return len(tries), answers


@exercise("12.Q2", kind="reasoning", title="three ToolCalls to a flaky service: how often does it run?")
def check_flaky_runs(answer: Any) -> str:
    runs, answers = q2_runs()
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise Hint("answer with a whole number, such as 5 (not text)")
    if answer == runs:
        return f"right: the service ran {runs} times, and the three ToolMessages were {answers}"
    if answer > runs:
        raise Hint("a second failure ends that ToolCall's errand with 'tool failed twice': there is no third try")
    raise Hint("a broken tool gets one more try, and a ToolCall that fails twice uses up two requests")


Q3_OPTIONS = {"A": [9, 1, 16], "B": [], "C": [9, 1]}


class _Squares(TypedDict):
    numbers: list
    squares: Annotated[list, operator.add]


def q3_squares(failing: int | None = 4, audit_fails: bool = False) -> list[int]:
    """The squares in the last state piece 4's toy reaches when the branch for ``failing`` raises, or, with
    ``audit_fails``, when every branch works and a node after the join (``audit``) raises."""
    def square(packet: dict[str, int]) -> dict[str, list[int]]:
        if packet["n"] == failing:
            raise TimeoutError("this branch's service did not answer")
        return {"squares": [packet["n"] ** 2]}

    def audit(state: dict[str, Any]) -> dict[str, Any]:
        raise TimeoutError("the audit service did not answer")

    builder = StateGraph(_Squares)
    builder.add_node("square", square)
    builder.add_conditional_edges(START, lambda s: [Send("square", {"n": n}) for n in s["numbers"]], ["square"])
    if audit_fails:
        builder.add_node("audit", audit)
        builder.add_edge("square", "audit")
        builder.add_edge("audit", END)
    else:
        builder.add_edge("square", END)
    reached = []
    try:
        for values in builder.compile().stream({"numbers": [3, 1, 4]}, stream_mode="values"):
            reached.append(values)
    except TimeoutError:
        pass
    return reached[-1]["squares"]


@exercise("12.Q3", kind="reasoning", title="a node after the join raises: which squares are kept?")
def check_audit_fails(answer: Any) -> str:
    truth = next((k for k, v in Q3_OPTIONS.items() if v == q3_squares(None, audit_fails=True)), None)
    if letter_answer(answer, "".join(Q3_OPTIONS)) == truth:
        return f"right: the last state reached holds squares {Q3_OPTIONS[truth]}"
    raise Hint("a superstep that raises merges nothing of itself, and only of itself: the squares' superstep had "
               "finished, and merged, before audit ran in the next one")
