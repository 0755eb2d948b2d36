"""Reference answers for notebook 10's exercises, and plausible wrong ones with the hint they should get."""

from __future__ import annotations

from mingraph_lite import SystemMessage, ToolMessage


# 10.1 ---------------------------------------------------------------- a window that keeps exchanges whole
class SafeWindow:
    def __init__(self, system_prompt, n):
        """The notebook's own answer to 10.1 (a reference answer, loaded unprinted)."""
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


class NegativeStart(SafeWindow):
    """No floor at 0: with fewer messages than n the start is negative, and Python counts it from the end."""

    def messages(self):
        start = len(self.history) - self.n
        while start > 0 and isinstance(self.history[start], ToolMessage):
            start -= 1
        return [self.system, *self.history[start:]]


class BacksOneStep(SafeWindow):
    """Moves back once, not while: a reply asking for two tools leaves its first slip as the start."""

    def messages(self):
        start = max(0, len(self.history) - self.n)
        if start > 0 and isinstance(self.history[start], ToolMessage):
            start -= 1
        return [self.system, *self.history[start:]]


class KeepsEverything(SafeWindow):
    def messages(self):
        return [self.system, *self.history]


class ForgetsTheSystemPrompt(SafeWindow):
    def messages(self):
        return super().messages()[1:]


# 10.3 ---------------------------------------------------------------- a window that fits a token budget
class TokenWindow:
    def __init__(self, system_prompt, budget, count):
        """The notebook's own answer to 10.3 (a reference answer, loaded unprinted)."""
        self.system = SystemMessage(system_prompt)
        self.budget = budget
        self.count = count
        self.history = []

    def add(self, message):
        self.history.append(message)

    def messages(self):
        start, total = len(self.history), 0
        while start > 0 and total + self.count(self.history[start - 1]) <= self.budget:
            start -= 1
            total += self.count(self.history[start])
        while start < len(self.history) and isinstance(self.history[start], ToolMessage):
            start += 1  # forward: the slips' request did not fit, and moving back would break the budget
        return [self.system, *self.history[start:]]


class UnderStrictly(TokenWindow):
    """< instead of <=: a window that fits exactly is refused."""

    def messages(self):
        start, total = len(self.history), 0
        while start > 0 and total + self.count(self.history[start - 1]) < self.budget:
            start -= 1
            total += self.count(self.history[start])
        while start < len(self.history) and isinstance(self.history[start], ToolMessage):
            start += 1
        return [self.system, *self.history[start:]]


class MovesBackLikeTenOne(TokenWindow):
    """10.1's move back reused as is: whole exchanges, but over the budget."""

    def messages(self):
        start, total = len(self.history), 0
        while start > 0 and total + self.count(self.history[start - 1]) <= self.budget:
            start -= 1
            total += self.count(self.history[start])
        while 0 < start < len(self.history) and isinstance(self.history[start], ToolMessage):
            start -= 1
        return [self.system, *self.history[start:]]


class KeepsOrphanSlips(TokenWindow):
    """The fitting tail, no exchange rule."""

    def messages(self):
        start, total = len(self.history), 0
        while start > 0 and total + self.count(self.history[start - 1]) <= self.budget:
            start -= 1
            total += self.count(self.history[start])
        return [self.system, *self.history[start:]]


class CountsWords(TokenWindow):
    """Its own word count instead of the count it is given."""

    def messages(self):
        start, total = len(self.history), 0
        while start > 0 and total + len(self.history[start - 1].content.split()) <= self.budget:
            start -= 1
            total += len(self.history[start].content.split())
        while start < len(self.history) and isinstance(self.history[start], ToolMessage):
            start += 1
        return [self.system, *self.history[start:]]


class CountsThePrompt(TokenWindow):
    """Charges the system prompt to the budget too."""

    def messages(self):
        start, total = len(self.history), self.count(self.system)
        while start > 0 and total + self.count(self.history[start - 1]) <= self.budget:
            start -= 1
            total += self.count(self.history[start])
        while start < len(self.history) and isinstance(self.history[start], ToolMessage):
            start += 1
        return [self.system, *self.history[start:]]


class DropsThePromptWhenTight(TokenWindow):
    def messages(self):
        kept = super().messages()
        return kept if len(kept) > 1 else []


class SkipsWhatDoesNotFit(TokenWindow):
    """Goes on past a message too big for the budget: not a slice of the most recent messages."""

    def messages(self):
        kept, total = [], 0
        for message in reversed(self.history):
            if total + self.count(message) <= self.budget:
                kept.insert(0, message)
                total += self.count(message)
        while kept and isinstance(kept[0], ToolMessage):
            kept.pop(0)
        return [self.system, *kept]


class WrapsKeepAll(TokenWindow):
    def __init__(self, system_prompt, budget, count):
        from mingraph_lite import KeepAll

        super().__init__(system_prompt, budget, count)
        self.inner = KeepAll(system_prompt)

# 10.2 ---------------------------------------------------------------- how wide must the window be?
def smallest_n(history):
    """The notebook's own answer to 10.2 (a reference answer, loaded unprinted)."""
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    last = first  # the last answer slip of the same reply: a window starting there moves back to the reply
    while isinstance(history[last + 1], ToolMessage):
        last += 1
    return len(history) - 1 - last  # the last call reads everything but the final answer


def smallest_n_to_the_first_question(history):
    return len(history) - 1


def smallest_n_counting_the_answer(history):
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    return len(history) - first


def smallest_n_counting_the_asking_reply(history):
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    return len(history) - 1 - (first - 1)  # from the reply that asked, to the last message the last call reads


def smallest_n_without_moving_back(history):
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    return len(history) - 1 - first


def smallest_n_one_short(history):
    return smallest_n(history) - 1


def smallest_n_by_trying(history):
    from mingraph_lite import LastN

    for n in range(1, len(history) + 1):
        window = LastN("", n)
        for message in history[:-1]:
            window.add(message)
        if history[2] in window.messages():  # the first answer slip
            return n


def smallest_n_by_trying_a_hidden_window(history):
    import importlib

    window_class = getattr(importlib.import_module("mingraph_lite"), "Last" + "N")  # out of the static check's sight
    for n in range(1, len(history) + 1):
        window = window_class("", n)
        for message in history[:-1]:
            window.add(message)
        if history[2] in window.messages():
            return n


SOLUTIONS = {"10.1": SafeWindow, "10.2": smallest_n, "10.3": TokenWindow,
             "10.Q2": 8, "10.Q4": "keep_last=2", "10.Q5": "ReplayMismatch"}

QUESTIONS = {
    "10.Q1": "Nothing: the model keeps no state between calls, so without the folder question 2 arrives with no "
             "question 1 behind it, and 'And in Tokyo?' has no meaning. The folder is read out in the agent's loop: "
             "the line printed under run_conversation's body, run.llm.generate(run.memory.messages(), run.tools), "
             "in mingraph_lite/agents.py, once per model call.",
    "10.Q2": "8. The 7th message from the end is an answer slip, so the start moves back one, to the assistant "
             "message that asked for it: the window is one larger than n.",
    "10.Q3": "The slice history[-n:]: it starts wherever n lands, also on an answer slip whose assistant message is "
             "cut off. The model would read a tool result whose call id points at no call in the folder: a number "
             "with nothing saying what it measures (an answer to a question nobody asked).",
    "10.Q4": "keep_last=2 is cheaper: every agent call reads fewer word-for-word messages, and each condensation "
             "takes more at once, so the summariser runs 5 times instead of 6; about 1,590 tokens against 1,725. "
             "The price is in the answers: questions 4 and 10 (the two conversions, which need several calls) "
             "answer 'I can't see your question any more', because a condensation in the middle of the turn kept "
             "only the last 2 messages and the question went into the summary. A tighter memory saves tokens and "
             "loses the task.",
    "10.Q5": "ReplayMismatch: a replay checks each question's first folder against the recording. With trigger=6 "
             "the summary is written later, so from that question on the folder differs from the one recorded, "
             "and ReplayLLM refuses it (the check is what makes a replay evidence, not a story).",
}

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


class BuildsLastNEachRead(SafeWindow):
    """Builds a fresh LastN inside messages(): nothing stored, but the package still does the cut."""

    def messages(self):
        from mingraph_lite import LastN

        window = LastN(self.system.content, self.n)
        for message in self.history:
            window.add(message)
        return window.messages()


class BuildsLastNWithoutThePrompt(BuildsLastNEachRead):
    """The reader's variant: LastN inside messages(), the system prompt dropped (refused for LastN all the same)."""

    def messages(self):
        return super().messages()[1:]


class CutsWithTheModule(SafeWindow):
    def messages(self):
        import mingraph_lite.memory as memory

        return [self.system, *self.history[memory.safe_start(self.history, max(0, len(self.history) - self.n)):]]


class CutsWithAHiddenSafeStart(SafeWindow):
    """The reader's cheat: safe_start fetched by name at run time, out of the static check's sight."""

    def messages(self):
        import importlib

        cut = getattr(importlib.import_module("mingraph_lite.memory"), "safe" + "_start")
        return [self.system, *self.history[cut(self.history, max(0, len(self.history) - self.n)):]]


def smallest_n_with_a_hidden_safe_start(history):
    import importlib

    cut = getattr(importlib.import_module("mingraph_lite.memory"), "safe" + "_start")
    first = next(i for i, m in enumerate(history) if isinstance(m, ToolMessage))
    return next(n for n in range(1, len(history)) if cut(history[:-1], len(history) - 1 - n) <= first)


WRONG = {
    "10.1": [(WrapsLastN, "hands the work to the package's LastN"), (CutsWithSafeStart, "memory.safe_start"),
             (CutsWithTheModule, "memory.safe_start"), (CutsWithAHiddenSafeStart, "memory.safe_start() ran"),
             (BuildsLastNEachRead, "LastN.messages() ran"), (BuildsLastNWithoutThePrompt, "LastN.messages() ran"),
             (NaiveSlice, "but not the assistant message that asked for it"), (StartsLater, "fewer than n"),
             (DropsAnswerSlips, "but not its answer slip"), (KeepsEverything, "keep every exchange whole"),
             (NegativeStart, "messages so far"), (BacksOneStep, "asked for more than one tool"),
             (ForgetsTheSystemPrompt, "start with the system prompt")],
    "10.2": [(smallest_n_to_the_first_question, "reaches back to the first question"),
             (smallest_n_counting_the_answer, "counts the final answer"),
             (smallest_n_counting_the_asking_reply, "counts the reply that asked for the first slip"),
             (smallest_n_without_moving_back, "moves back to that reply"),
             (smallest_n_one_short, "no longer reads the first answer slip"),
             (smallest_n_by_trying, "tries the package's windows"),
             (smallest_n_by_trying_a_hidden_window, "a package memory is choosing for you"),
             (smallest_n_with_a_hidden_safe_start, "memory.safe_start() ran"), (39, "the function itself")],
    "10.3": [(UnderStrictly, "EQUALS the budget fits"), (MovesBackLikeTenOne, "moved its start BACK"),
             (KeepsOrphanSlips, "starts on an answer slip"), (CountsWords, "with the count you are given"),
             (DropsThePromptWhenTight, "must start with the system prompt"),
             (CountsThePrompt, "counts the system prompt"),
             (SkipsWhatDoesNotFit, "not the most recent messages in order"),
             (WrapsKeepAll, "one of the package's memories"), (TokenWindow(None, 3, len), "the class itself")],
    "10.Q2": [(7, "start the window on an answer slip"), (4, "walk the folder's last messages back")],
    "10.Q4": [("keep_last=4", "keep_last=2 even needs fewer summariser runs (5 against 6"), ("same", "a tie would need those two differences to cancel"),
              ("cheaper", "answer with one of")],
    "10.Q5": [("finish", "some question's folder differs"), ("crash", 'answer "finish" or "ReplayMismatch"')],
}
