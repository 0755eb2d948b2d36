"""Reference answers for notebook 02's exercises and questions, and plausible wrong ones with the hint each must get."""

from __future__ import annotations

import copy
import re

from mingraph_lite import Agent, KeepAll, StepLimitReached, SystemMessage, UserMessage

# --- 02.1 ---------------------------------------------------------------------------------------------


class NaiveAgent:
    """The notebook's trap, repeated here so the answers below can subclass it."""

    def __init__(self, llm, registry, system_prompt, memory=KeepAll("You answer questions.")):
        self.llm, self.registry, self.system_prompt, self.memory = llm, registry, system_prompt, memory

    def run(self, question, *, max_steps=10):
        self.memory.add(UserMessage(question))
        for _ in range(max_steps):
            response = self.llm.generate(self.memory.messages(), self.registry.tools)
            self.memory.add(response.message)
            if not response.message.tool_calls:
                return response.message.content
            for slip in response.message.tool_calls:
                self.memory.add(self.registry.run(slip))
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


class FixedAgent(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        """The notebook's own answer to 02.1 (a reference answer, loaded unprinted)."""
        if memory is None:
            memory = KeepAll(system_prompt)
        super().__init__(llm, registry, system_prompt, memory)


class SharedFolderAgent(NaiveAgent):
    """Moves the default, but still builds it once, in the def line."""

    def __init__(self, llm, registry, system_prompt, memory=KeepAll("You answer questions.")):
        super().__init__(llm, registry, system_prompt, memory)


class ForgetsTheCallersFolder(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt, KeepAll(system_prompt))


class TruthyTestAgent(NaiveAgent):
    """The fresh reader's first try: an empty folder is falsy, so the caller's new folder is thrown away."""

    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt, memory if memory else KeepAll(system_prompt))


class CopiesTheCallersFolder(NaiveAgent):
    """A fresh reader's try: deepcopy every folder, so nothing is shared, the caller's own included."""

    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt,
                         KeepAll(system_prompt) if memory is None else copy.deepcopy(memory))


class AgentInside(NaiveAgent):
    """Borrows the package's Agent, whose default is already fixed, just for its memory."""

    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt, Agent(llm, registry, system_prompt, memory=memory).memory)


# --- 02.2 ---------------------------------------------------------------------------------------------


class RunContext:
    """Everything one run needs to remember, as the notebook's dataclass holds it (a plain class here: this
    file is loaded without being imported, and dataclasses need their module imported)."""

    def __init__(self, messages=None, step=0, scratch=None, answer=None):
        self.messages, self.step = [] if messages is None else messages, step
        self.scratch, self.answer = {} if scratch is None else scratch, answer

    @property
    def done(self) -> bool:
        return self.answer is not None


def remembering_loop(llm, registry, system_prompt, question, *, max_steps=10):
    """The notebook's own answer to 02.2 (a reference answer, loaded unprinted)."""
    ctx = RunContext(messages=[SystemMessage(system_prompt), UserMessage(question)], scratch={"errands": 0})
    while ctx.step < max_steps:
        response = llm.generate(ctx.messages, registry.tools)
        ctx.step += 1
        ctx.messages.append(response.message)
        if not response.message.tool_calls:
            ctx.answer = response.message.content
            return ctx
        for slip in response.message.tool_calls:
            ctx.messages.append(registry.run(slip))
            ctx.scratch["errands"] += 1
    return ctx  # unfinished: answer stays None


SHARED = RunContext()


def loop_with_one_context(llm, registry, system_prompt, question, *, max_steps=10):
    ctx = SHARED  # built once, for every run
    ctx.messages[:] = [SystemMessage(system_prompt), UserMessage(question)]
    ctx.step, ctx.answer, ctx.scratch["errands"] = 0, None, 0
    while ctx.step < max_steps:
        response = llm.generate(ctx.messages, registry.tools)
        ctx.step += 1
        ctx.messages.append(response.message)
        if not response.message.tool_calls:
            ctx.answer = response.message.content
            return ctx
        for slip in response.message.tool_calls:
            ctx.messages.append(registry.run(slip))
            ctx.scratch["errands"] += 1
    return ctx


def loop_counting_errands_as_steps(llm, registry, system_prompt, question, *, max_steps=10):
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    ctx.step = ctx.scratch["errands"]
    return ctx


def loop_raising_at_the_ceiling(llm, registry, system_prompt, question, *, max_steps=10):
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    if not ctx.done:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=ctx.step)
    return ctx


def loop_without_the_question(llm, registry, system_prompt, question, *, max_steps=10):
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    ctx.messages = [m for m in ctx.messages if m.role != "user"]
    return ctx


def loop_without_the_system_message(llm, registry, system_prompt, question, *, max_steps=10):
    """A reader's pass: the folder starts with the question, and system_prompt is never used."""
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    ctx.messages = ctx.messages[1:]
    return ctx


def loop_counting_errands_at_the_end(llm, registry, system_prompt, question, *, max_steps=10):
    """A reader's pass: errands recounted from the folder only when the model answers, so a ceiling stop says 0."""
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    if not ctx.done:
        ctx.scratch["errands"] = 0
    return ctx


def loop_creating_errands_late(llm, registry, system_prompt, question, *, max_steps=10):
    """A reader's pass: scratch["errands"] made only at the first errand, so a run that answers at once has none."""
    ctx = remembering_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    if ctx.scratch["errands"] == 0:
        del ctx.scratch["errands"]
    return ctx


def loop_by_the_agent(llm, registry, system_prompt, question, *, max_steps=10):
    agent = Agent(llm, registry, system_prompt, max_steps=max_steps)
    answer = agent.run({"question": question})["answer"]
    return RunContext(messages=agent.memory.messages(), answer=answer)


def loop_by_the_steps(llm, registry, system_prompt, question, *, max_steps=10):
    from mingraph_lite import CallModel, RunTools

    ctx, state = RunContext(scratch={"errands": 0}), {"question": question}
    call, run_tools = CallModel(llm, registry, system_prompt), RunTools(registry)
    while ctx.step < max_steps and ctx.answer is None:
        state = call.run(state)
        ctx.step += 1
        ctx.answer = state.get("answer")
        if ctx.answer is None:
            ctx.scratch["errands"] += len(state["messages"][-1].tool_calls)
            state = run_tools.run(state)
    ctx.messages = list(state.get("messages", []))
    return ctx


# --- 02.3 ---------------------------------------------------------------------------------------------

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def celsius_of(event):
    """The number a to_fahrenheit slip asks to convert, or None when its arguments gave none."""
    arguments = event["arguments"] if isinstance(event["arguments"], dict) else {}  # text: did not parse
    try:
        return float(arguments.get("celsius"))
    except (TypeError, ValueError):
        return None


def first_made_up(events):
    """The notebook's own answer to 02.3 (a reference answer, loaded unprinted)."""
    returned = {}  # number -> the step whose errands returned it first
    for event in events:
        if event["event"] == "tool_return" and event["name"] == "get_weather":
            for n in NUMBER.findall(event["content"]):
                returned.setdefault(float(n), event["step"])
        elif event["event"] == "tool_call" and event["name"] == "to_fahrenheit":
            if returned.get(celsius_of(event), event["step"]) >= event["step"]:  # unseen, or seen too late
                return event["step"]
    return None


def by_the_wrong_key(events):
    """A reader's first try: the event kind read from a "type" key, which the events do not have."""
    returned = set()
    for event in events:
        if event.get("type") == "tool_return" and event["name"] == "get_weather":
            returned.update(float(n) for n in NUMBER.findall(event["content"]))
        elif event.get("type") == "tool_call" and celsius_of(event) not in returned:
            return event["step"]
    return None


def by_event_order(events):
    """A reader's pass: a get_weather return earlier in the list counts, even one from the same reply."""
    returned = set()
    for event in events:
        if event["event"] == "tool_return" and event["name"] == "get_weather":
            returned.update(float(n) for n in NUMBER.findall(event["content"]))
        elif event["event"] == "tool_call" and event["name"] == "to_fahrenheit":
            if celsius_of(event) not in returned:
                return event["step"]
    return None


def first_conversion(events):
    return next((e["step"] for e in events if e["event"] == "tool_call" and e["name"] == "to_fahrenheit"), None)


def comparing_text(events):
    returned = set()
    for event in events:
        if event["event"] == "tool_return" and event["name"] == "get_weather":
            returned.add(event["content"])
        elif event["event"] == "tool_call" and event["name"] == "to_fahrenheit":
            if str((event["arguments"] if isinstance(event["arguments"], dict) else {}).get("celsius")) not in returned:
                return event["step"]
    return None


def any_tool_counts(events):
    returned = set()
    for event in events:
        if event["event"] == "tool_return":
            returned.update(float(n) for n in NUMBER.findall(event["content"]))
        elif event["event"] == "tool_call" and event["name"] == "to_fahrenheit":
            if celsius_of(event) not in returned:
                return event["step"]
    return None


def numbers_from_the_whole_run(events):
    """A reader's pass: every number get_weather returned, later ones included, not only the earlier ones."""
    returned = {float(n) for e in events if e["event"] == "tool_return" and e["name"] == "get_weather"
                for n in NUMBER.findall(e["content"])}
    return next((e["step"] for e in events if e["event"] == "tool_call" and e["name"] == "to_fahrenheit"
                 and celsius_of(e) not in returned), None)


def step_off_by_one(events):
    step = first_made_up(events)
    return None if step is None else step - 1


def position_not_step(events):
    step = first_made_up(events)
    if step is None:
        return None
    return next(i for i, e in enumerate(events) if e.get("step") == step and e["event"] == "tool_call")


def by_the_classifier(events):
    from mingraph_lite.course.classify import classify

    verdict = classify(events)
    return events[verdict.line - 1]["step"] if verdict.line else None


SOLUTIONS = {"02.1": FixedAgent, "02.2": remembering_loop, "02.3": first_made_up,
             "02.Q1": 12, "02.Q2": 630, "02.Q3": (3, False)}

WRONG = {
    "02.1": [(SharedFolderAgent, "still share one folder"),
             (ForgetsTheCallersFolder, "when the caller hands in a memory"),
             (TruthyTestAgent, "`memory is None`"),
             (CopiesTheCallersFolder, "that very object"),
             (AgentInside, "the package's Agent")],
    "02.2": [(loop_with_one_context, "two runs share one context"),
             (loop_counting_errands_as_steps, "ctx.step counts model calls"),
             (loop_raising_at_the_ceiling, "return the context unfinished"),
             (loop_without_the_question, "ctx.messages is the folder"),
             (loop_without_the_system_message, "starts with the system message"),
             (loop_counting_errands_at_the_end, "keep it up to date as each errand runs"),
             (loop_creating_errands_late, "answers at once"),
             (loop_by_the_agent, "the package's Agent"),
             (loop_by_the_steps, "CallModel and RunTools")],
    "02.3": [(first_conversion, "nothing is made up there"),
             (comparing_text, "compare numbers, not text"),
             (any_tool_counts, "only get_weather returns Celsius"),
             (position_not_step, 'return the "step"'),
             (numbers_from_the_whole_run, "*before* the slip"),
             (step_off_by_one, "not shifted by one"),
             (by_the_classifier, "classifier"),
             (by_event_order, "in the same reply"),
             (by_the_wrong_key, 'under "event"')],
    "02.Q1": [(2, "a fresh folder"), (11, "count the shared folder")],
    "02.Q2": [(670, "nine rounds of growth"), (400, "start from what the first call read")],
    "02.Q3": [((3, True), "never turned into an answer"), ((6, False), "not at the recorded one")],
}

QUESTIONS = {
    "02.Q1": "12: the folder both earlier agents shared holds the weather run (system, question, three replies, "
             "four answer slips: 9), the greeter's question and reply (11), and the third agent's own 'Hi!' (12).",
    "02.Q2": "630: the first call read 270 tokens and each later call 40 more (its own slip and the answer 86), "
             "so the tenth read 270 + 9 x 40.",
    "02.Q3": "3 errands, and no answer: the replay hands back the first three recorded replies, each one "
             "to_fahrenheit(30) slip, and the ceiling of 3 raises StepLimitReached before a fourth call.",
    "02.Q4": "SmolLM2 never stopped passing slips, and the ceiling counts model calls; Gemma answered at once, "
             "so the ceiling never came into play. Catching it needs a check on what the answer says (for "
             "instance, that it names both cities with a Fahrenheit number, or is not the prompt's placeholder), "
             "and what to do when it fails: ask again, or stop and say so.",
    "02.Q5": "Moving it does not break it: every call that passes slips goes through 'errands' once before the "
             "next check, so the check sees the same count (run with looping_manager and max_steps=5, it still "
             "stops at 5 calls with StepLimitReached). Deleting the bump does: step == max_steps is never true and "
             "the looping manager runs until its script runs out (30 calls); so does > for ==, one call too many "
             "(6). Nothing complains about either change. tests/notebooks/test_sticky_note_ceiling.py runs all three.",
}
