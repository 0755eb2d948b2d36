"""Plan-and-execute as a graph: plan once, run each step with its own small agent, then finish.

    START -> plan -> execute --next--> execute  (one step per visit)
                        |--done----> finish -> END
                        +--failed--> stop ---> END   (status "needs_attention", no answer)

The planner is called once and writes a numbered list; the plan is data in the state, readable
before anything runs. Each step is run by a fresh ``Agent`` (an empty folder, the step and the
results so far as its question, its own ``max_steps``), so a step that goes wrong cannot swamp the
others' folders, and a step that never finishes stops the plan honestly instead of being skipped.

The defaults are scripted stand-ins (labelled scripted, tokens counted as words): a planner with a
fixed four-step plan, and an executor that reads only its step and the results it is given.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, TypedDict

from mingraph_lite.agents import Agent
from mingraph_lite.errors import StepLimitReached
from mingraph_lite.graph.builder import END, START, StateGraph
from mingraph_lite.llms.scripted import ScriptedLLM, word_count
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, UserMessage
from .conversation import celsius_read, current_turn, turn_results
from mingraph_lite.course.scripts import number
from mingraph_lite.course.weather import weather_registry

PLANNER_PROMPT = ("Break the user's task into a short numbered list of steps, one per line. Each step must "
                  "be doable with the weather tools or by writing text. Do not carry the steps out.")
EXECUTOR_PROMPT = ("You carry out exactly one step of a plan, using get_weather and to_fahrenheit where "
                   "needed. The results of earlier steps are given; reply with this step's result only.")
DEFAULT_PLAN = ("1. Look up the temperature in Paris.\n2. Look up the temperature in Tokyo.\n"
                "3. Convert both temperatures to Fahrenheit.\n4. Write the answer from the results.")
_STEP = re.compile(r"Your step \(\d+ of \d+\): (.+)")
_LOOKUP = re.compile(r"temperature in ([A-Z][\w ]*?)(?:[.,;]|$)")
_FAHRENHEIT = re.compile(r"\b([A-Z][\w ]*?) is (-?\d+(?:\.\d+)?)°F")


class PlanState(TypedDict):
    task: str
    plan: list[str]  # replaced: written once by the planner
    done: int  # steps carried out so far; also the index of the next one
    results: Annotated[list[str], operator.add]  # one per step carried out, in order
    failed: str | None  # why a step stopped without a result; None while all goes well
    answer: str | None
    status: str  # "working", "finished" or "needs_attention"
    events: Annotated[list[str], operator.add]


def initial_plan_state(task: str) -> dict[str, Any]:
    if not isinstance(task, str) or not task.strip():
        raise ValueError(f"plan-and-execute needs a non-empty task string, got {task!r}")
    return {"task": task, "plan": [], "done": 0, "results": [], "failed": None, "answer": None,
            "status": "working", "events": []}


def parse_plan(text: str) -> list[str]:
    """The steps of a numbered (or bulleted) list, numbering removed; blank lines dropped.

    Naive on purpose (a careful reader is left open in notebook 11): every leading digit, '.', ')', '-',
    '*' and space goes, on every line, so a preamble stays a step and "3.5 degrees" loses its number."""
    steps = (line.strip().lstrip("0123456789.)-* \t").strip() for line in text.splitlines())
    return [step for step in steps if step]


def path_hint(guess: Any, path: list[str]) -> str:
    """Where a guessed path of node names first leaves the run's path, without giving the rest away."""
    if not isinstance(guess, list | tuple):
        return "write a list of node names, such as ['plan', 'execute']"
    for i, (mine, went) in enumerate(zip(guess, path), 1):
        if mine != went:
            why = ("there is no re-plan node in this graph" if mine == "replan" else
                   "the router reads state['failed'] after every execute")
            return f"your node {i} ({mine!r}) is where the run went elsewhere: {why}"
    if len(guess) < len(path):
        return f"the run did not end after your {len(guess)} nodes: which node ends a run that gives up?"
    return f"the run ended before your node {len(path) + 1}: every path ends in finish, stop or refuse"


def step_question(state: dict) -> str:
    """What one step's agent is asked: the task, the results so far, and its own step (nothing else)."""
    index, plan = state["done"], state["plan"]
    earlier = "\n".join(f"{i}. {step} -> {result}" for i, (step, result)
                        in enumerate(zip(plan, state["results"], strict=False), 1)) or "(none yet)"
    return (f"Task: {state['task']}\nResults so far:\n{earlier}\n"
            f"Your step ({index + 1} of {len(plan)}): {plan[index]}")


class PlanExecuteNodes:
    """The four nodes and the router; each node returns only what it changed."""

    def __init__(self, planner: Any, executor: Any, registry: Any, *, max_plan_steps: int = 6,
                 max_steps_per_step: int = 4, observers: Iterable[Any] = (), strict: bool = False) -> None:
        self.planner, self.executor, self.registry = planner, executor, registry
        self.max_plan_steps, self.max_steps_per_step = max_plan_steps, max_steps_per_step
        self.observers, self.strict = tuple(observers), strict

    def plan(self, state: dict) -> dict:
        reply = self.planner.generate([SystemMessage(PLANNER_PROMPT), UserMessage(state["task"])], [])
        steps = parse_plan(reply.message.content)
        if not steps:
            raise ValueError(f"the planner wrote no steps: {reply.message.content!r}")
        if len(steps) > self.max_plan_steps:
            raise ValueError(f"the planner wrote {len(steps)} steps; max_plan_steps is {self.max_plan_steps}")
        return {"plan": steps, "events": [f"planned {len(steps)} steps"]}

    def execute(self, state: dict) -> dict:
        number_ = state["done"] + 1
        agent = Agent(self.executor, self.registry, EXECUTOR_PROMPT, observers=self.observers,
                      max_steps=self.max_steps_per_step, strict=self.strict)
        try:
            result = agent.run({"question": step_question(state)})["answer"]
        except StepLimitReached as exc:  # never skip a step silently: the plan stops here
            why = f"step {number_} stopped without a result: {exc}"
            return {"failed": why, "events": [why]}
        return {"done": number_, "results": [result], "events": [f"step {number_}: {result}"]}

    @staticmethod
    def finish(state: dict) -> dict:
        return {"answer": state["results"][-1], "status": "finished", "events": ["finished"]}

    @staticmethod
    def stop(state: dict) -> dict:
        return {"answer": None, "status": "needs_attention",
                "events": [f"stopped after {state['done']} of {len(state['plan'])} steps"]}

    @staticmethod
    def route_after_execute(state: dict) -> str:
        if state["failed"]:
            return "failed"
        return "next" if state["done"] < len(state["plan"]) else "done"


def executor_policy(messages: Sequence[Message], tools: Any) -> Any:
    """The scripted executor: one reply from its step, the results it was given, and this turn's slips."""
    question, turn = current_turn(messages)
    step = _STEP.search(question).group(1)
    known = celsius_read(messages)
    if "Convert" in step:
        cities = list(known)
        converted = turn_results(turn, "to_fahrenheit")
        if not converted:
            return [("to_fahrenheit", {"celsius": known[city]}) for city in cities]
        pairs = zip(cities, converted, strict=False)
        return " and ".join(f"{city} is {number(f)}°F" for city, f in pairs) + "."
    if "answer" in step:
        return ", ".join(f"{city}: {f}°F" for city, f in _FAHRENHEIT.findall(question))
    cities = _LOOKUP.findall(step)
    missing = [city for city in cities if city not in known]
    if missing:  # asks (again) until it has a reading: a step it cannot do runs into max_steps
        return [("get_weather", {"city": city}) for city in missing]
    return " and ".join(f"{city} is {known[city]}°C" for city in cities) + "."


def compare_reads(loop_llm: Any, planner: Any, executor: Any) -> tuple[list[int], list[int]]:
    """Print and return the input words each call read (``word_count``): the loop's, then the plan's calls."""
    def reads(llm: Any) -> list[int]:
        return [word_count(messages, AssistantMessage(""))[0] for messages, _ in llm.calls]
    loop, plan = reads(loop_llm), reads(planner) + reads(executor)
    for name, counts in {"loop (ReAct)": loop, "plan-and-execute": plan}.items():
        print(f"{name:<17} model calls {len(counts):>2} | largest read {max(counts):>3} | all reads {sum(counts):>4}")
    return loop, plan


def show_run(state: dict, path: Sequence[str], replanner: Any = None) -> None:
    """Print a plan run: what a ``replanner`` was read (if given), each step with its result, path and status."""
    if replanner is not None:
        print("what the re-planner was read:\n" + replanner.calls[0][0][-1].content + "\n")
    for n, (step, result) in enumerate(zip(state["plan"], state["results"]), 1):
        print(f"step {n}: {step:<45} -> {result}")
    print("\npath:  ", " -> ".join(path))
    print("status:", state["status"], "| replans:", state["replans"], "| answer:", state["answer"])


def planner_llm(plan: str = DEFAULT_PLAN) -> ScriptedLLM:
    """A scripted planner that writes ``plan`` (tokens counted as words)."""
    return ScriptedLLM([plan], name="scripted: planner", count_tokens=word_count)


def executor_llm(max_calls: int = 40) -> ScriptedLLM:
    """The scripted executor shared by every step's agent (tokens counted as words)."""
    return ScriptedLLM([executor_policy] * max_calls, name="scripted: executor", count_tokens=word_count)


def dropping_replanner(plan: str, cannot: str, max_calls: int = 3) -> ScriptedLLM:
    """A scripted re-planner for one known ``plan``: every reply is the steps after the first one naming ``cannot``,
    numbered afresh. It reads nothing it is sent, so any re-plan node's wording works with it."""
    steps = parse_plan(plan)
    after = steps[next(i for i, step in enumerate(steps) if cannot in step) + 1:]
    reply = "\n".join(f"{i}. {step}" for i, step in enumerate(after, 1))
    return ScriptedLLM([reply] * max_calls, name="scripted: re-planner (drops what cannot be done)",
                       count_tokens=word_count)


def build_plan_execute_graph(planner: Any = None, executor: Any = None, registry: Any = None, *,
                             max_plan_steps: int = 6, max_steps_per_step: int = 4,
                             observers: Iterable[Any] = (), strict: bool = False) -> Any:
    """The plan-and-execute graph on mingraph_lite.graph; scripted planner and executor by default.

    The graph's ``max_steps`` is the longest legal run: plan, one visit per allowed step, finish or stop.
    """
    nodes = PlanExecuteNodes(planner or planner_llm(), executor or executor_llm(),
                             registry or weather_registry(), max_plan_steps=max_plan_steps,
                             max_steps_per_step=max_steps_per_step, observers=observers, strict=strict)
    builder = (StateGraph(PlanState)
               .add_node("plan", nodes.plan).add_node("execute", nodes.execute)
               .add_node("finish", nodes.finish).add_node("stop", nodes.stop)
               .add_edge(START, "plan").add_edge("plan", "execute")
               .add_conditional_edges("execute", nodes.route_after_execute,
                                      {"next": "execute", "done": "finish", "failed": "stop"})
               .add_edge("finish", END).add_edge("stop", END))
    graph = builder.compile(max_steps=max_plan_steps + 2, observers=observers, strict=strict,
                            name="plan and execute")
    graph.parts = nodes  # the planner, executor and budgets, for reading after a run
    return graph


def run_plan_execute(graph: Any, task: str) -> dict[str, Any]:
    """Run one task through a graph from ``build_plan_execute_graph``; return the final state."""
    return graph.invoke(initial_plan_state(task))
