"""Reference answers for notebook 08's exercises, and plausible wrong ones with the hint they should get."""

from __future__ import annotations

from mingraph_lite import SystemMessage, ToolMessage, UserMessage
from lessons.plan_execute import parse_plan


# 08.1 ---------------------------------------------------------------- a window that keeps exchanges whole
class SafeWindow:
    def __init__(self, system_prompt, n):
        self.system = SystemMessage(system_prompt)
        self.n = n
        self.history = []

    def add(self, message):
        self.history.append(message)

    def messages(self):
        start = max(0, len(self.history) - self.n)
        while start > 0 and isinstance(self.history[start], ToolMessage):
            start -= 1  # back to the assistant message whose slips these answer
        return [self.system, *self.history[start:]]


class NaiveSlice(SafeWindow):
    def messages(self):
        return [self.system, *self.history[-self.n:]]


class StartsLater(SafeWindow):
    """Skips forward past leading answer slips: whole exchanges, but fewer than n messages."""

    def messages(self):
        kept = self.history[-self.n:]
        while kept and isinstance(kept[0], ToolMessage):
            kept = kept[1:]
        return [self.system, *kept]


class DropsAnswerSlips(SafeWindow):
    def messages(self):
        return [self.system, *(m for m in self.history[-self.n:] if not isinstance(m, ToolMessage))]


class KeepsEverything(SafeWindow):
    def messages(self):
        return [self.system, *self.history]


class ForgetsTheSystemPrompt(SafeWindow):
    def messages(self):
        return super().messages()[1:]


# 08.4 ---------------------------------------------------------------- a re-plan node
REPLAN_PROMPT = "A step of the plan failed. Write the remaining steps as a numbered list, one per line."


def _report(state):
    done = state["done"]
    finished = "\n".join(f"- {step} -> {result}" for step, result in zip(state["plan"][:done], state["results"]))
    after = "\n".join(f"{i}. {step}" for i, step in enumerate(state["plan"][done + 1:], 1))
    return (f"Task: {state['task']}\nDone so far:\n{finished or '(nothing yet)'}\n"
            f"Failed step: {state['plan'][done]}\nWhy: {state['failed']}\nSteps after it:\n{after}")


def replan(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + parse_plan(reply.message.content), "failed": None,
            "replans": state["replans"] + 1}


def replan_whole_plan(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    return {"plan": parse_plan(reply.message.content), "failed": None, "replans": state["replans"] + 1}


def replan_keeps_failed(state, replanner):
    update = replan(state, replanner)
    return {**update, "failed": state["failed"]}


def replan_without_the_reason(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(state["task"])], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + parse_plan(reply.message.content), "failed": None,
            "replans": state["replans"] + 1}


def replan_uncounted(state, replanner):
    update = replan(state, replanner)
    return {"plan": update["plan"], "failed": None}


def replan_with_results(state, replanner):
    return {**replan(state, replanner), "results": state["results"]}


# a reply is not a plan until its numbering is removed
def replan_unparsed(state, replanner):
    reply = replanner.generate([SystemMessage(REPLAN_PROMPT), UserMessage(_report(state))], [])
    done = state["done"]
    return {"plan": state["plan"][:done] + reply.message.content.splitlines(), "failed": None,
            "replans": state["replans"] + 1}


SOLUTIONS = {"08.1": SafeWindow, "08.2": 39, "08.3": 4, "08.4": replan}

class WrapsLastN:
    """The fresh reader's shortcut: hand the work to the package's answer. Passes nothing the exercise asks."""

    def __init__(self, system_prompt, n):
        from mingraph_lite import LastN

        self.inner = LastN(system_prompt, n)

    def add(self, message):
        self.inner.add(message)

    def messages(self):
        return self.inner.messages()


class CutsWithSafeStart(SafeWindow):
    """The other shortcut: the package's own helper does the part the exercise is about."""

    def messages(self):
        from mingraph_lite.memory import safe_start

        return [self.system, *self.history[safe_start(self.history, len(self.history) - self.n):]]


class CutsWithTheModule(SafeWindow):
    def messages(self):
        import mingraph_lite.memory as memory

        return [self.system, *self.history[memory.safe_start(self.history, max(0, len(self.history) - self.n)):]]


WRONG = {
    "08.1": [(WrapsLastN, "hands the work to the package's LastN"), (CutsWithSafeStart, "memory.safe_start"),
             (CutsWithTheModule, "memory.safe_start"), (NaiveSlice, "but not the assistant message that asked for it"), (StartsLater, "never forward"),
             (DropsAnswerSlips, "but not its answer slip"), (KeepsEverything, "move the start back only as far"),
             (ForgetsTheSystemPrompt, "start with the system prompt")],
    "08.4": [(replan_whole_plan, "the steps already done changed"), (replan_keeps_failed, "failed is still set"),
             (replan_without_the_reason, "not told which step failed"), (replan_uncounted, "count the re-plans"),
             (replan_with_results, "leave results and done out"), (replan_unparsed, "numbering removed")],
    "08.2": [(8, "the window must still reach back"), (60, "a smaller window works too")],
    "08.3": [(6, "Walk the conversation"), (3, "Walk the conversation")],
}
