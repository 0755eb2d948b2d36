"""Reference answers for notebook 03's exercises and questions, and plausible wrong ones with the hint each must get.

The cards here are copies of the notebook's (``CallingModel``, ``RunningTools``, ``Finished``; the notebook's ``CallingModel``
names its errands card in a class attribute, this one by the module name rebound below), so the reference cards
of 03.3 run on their own: question 03.Q1's check walks them, and ``lessons.diffs.ask_a_human_costs`` diffs them.
"""

# (no `from __future__ import annotations`: dataclasses here are loaded from a file path, outside sys.modules)
from dataclasses import dataclass
from types import SimpleNamespace

from mingraph_lite import (Agent, AssistantMessage, ScriptedLLM, StepLimitReached, SystemMessage, ToolArgsError,
                           ToolCall, ToolMessage, UserMessage)
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.course.weather import WEATHER, weather_registry


def knows(city):
    return city.strip().lower() in {name.lower() for name in WEATHER}


@dataclass(frozen=True)
class CallingModel:
    step: int

    def run(self, desk) -> "RunningTools | Finished":
        if self.step > desk.max_steps:
            return Finished(None)
        response = desk.llm.generate(desk.folder, desk.registry.tools)
        desk.folder.append(response.message)
        if response.message.tool_calls:
            return RunningTools(response.message.tool_calls, self.step)
        return Finished(response.message.content)


@dataclass(frozen=True)
class RunningTools:
    slips: tuple
    step: int

    def run(self, desk) -> "CallingModel":
        for slip in self.slips:
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class Finished:
    answer: str | None

    def run(self, desk) -> None:
        return None


PlainRunningTools = RunningTools  # the card before the edit: the wrong answers below start from it


# --- 03.1 ---------------------------------------------------------------------------------------

def expected_cards(replies, max_steps):
    """The notebook's own answer to 03.1 (a reference answer, loaded unprinted)."""
    cards = []
    for step, slips in enumerate(replies, start=1):
        if step > max_steps:
            return [*cards, "CallingModel", "Finished"]  # picked up, makes no call, hands over Finished
        cards.append("CallingModel")
        if not slips:
            return [*cards, "Finished"]
        cards.append("RunningTools")
    return [*cards, "CallingModel", "Finished"]


def cards_stopping_a_call_early(replies, max_steps):
    """A reader's try: the ceiling met with >= instead of >, one model call too soon."""
    cards = []
    for step, slips in enumerate(replies, start=1):
        if step >= max_steps:
            return [*cards, "CallingModel", "Finished"]
        cards.append("CallingModel")
        if not slips:
            return [*cards, "Finished"]
        cards.append("RunningTools")
    return [*cards, "CallingModel", "Finished"]


def cards_with_underscores(replies, max_steps):
    """A reader's try: the names as the package prints its classes, with the leading underscore."""
    return [f"_{name}" for name in expected_cards(replies, max_steps)]


def cards_raising_at_the_limit(replies, max_steps):
    """A reader's try: raise at the ceiling, as the Agent does, instead of listing the cards up to it."""
    if 0 not in replies[:max_steps]:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)
    return expected_cards(replies, max_steps)


def cards_one_per_slip(replies, max_steps):
    cards = []
    for slips in replies[:max_steps]:
        cards.append("CallingModel")
        if not slips:
            return [*cards, "Finished"]
        cards += ["RunningTools"] * slips
    return [*cards, "Finished"]


def cards_no_extra_at_the_limit(replies, max_steps):
    cards = []
    for slips in replies[:max_steps]:
        cards.append("CallingModel")
        if not slips:
            return [*cards, "Finished"]
        cards.append("RunningTools")
    return [*cards, "Finished"]


def cards_up_to_the_answer(replies, max_steps):
    rounds = min(replies.index(0), max_steps)  # a manager that never answers has no 0: ValueError
    return ["CallingModel", "RunningTools"] * rounds + ["CallingModel", "Finished"]


def cards_falling_off_at_the_ceiling(replies, max_steps):
    """Returns only when the manager answers: at the ceiling it falls off the loop and returns None."""
    cards = []
    for n in replies[:max_steps]:
        cards.append("CallingModel")
        if n == 0:
            return cards + ["Finished"]
        cards.append("RunningTools")


def cards_by_running(replies, max_steps):
    """Reads the cards off a run of the package's Agent instead of working them out."""
    script = [[("get_weather", {"city": "Oslo"})] * n if n else "done" for n in replies]
    agent = Agent(ScriptedLLM(script + [[("get_weather", {"city": "Oslo"})]] * 5), weather_registry(), "You answer.",
                  max_steps=max_steps)
    try:
        agent.run({"question": "?"})
    except StepLimitReached:
        pass
    return [card for card, _ in agent.cards]


class _FakeModel:
    """Ten lines of fake model: each reply holds the next number of slips."""

    def __init__(self, replies):
        self.replies = list(replies)

    def generate(self, messages, tools):
        n = self.replies.pop(0) if self.replies else 1
        slips = tuple(ToolCall(f"t{i}", "get_weather", {"city": "Oslo"}) for i in range(n))
        return SimpleNamespace(message=AssistantMessage("" if n else "done", tool_calls=slips))


def cards_by_card_loop(replies, max_steps):
    """Runs the notebook's cards (as card_loop does) on a fake model, and reads the cards off the run."""
    desk = SimpleNamespace(llm=_FakeModel(replies), registry=weather_registry(), max_steps=max_steps, folder=[])
    card, picked = CallingModel(step=1), []
    while card is not None:
        picked.append(type(card).__name__.removesuffix("AskingHuman"))
        card = card.run(desk)
    return picked


# --- 03.2 ---------------------------------------------------------------------------------------

def sticky_note_loop_with_human(llm, registry, question, human, *, max_steps=10):
    """The notebook's own answer to 03.2 (a reference answer, loaded unprinted)."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer, pending = "waiting", 0, None, []
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            if response.message.tool_calls:
                situation, pending = "errands", list(response.message.tool_calls)
            else:
                answer, situation = response.message.content, "hung up"
        elif situation == "errands":
            while pending and not (pending[0].name == "get_weather" and not knows(pending[0].arguments["city"])):
                folder.append(registry.run(pending.pop(0)))
            situation = "asking human" if pending else "waiting"
        elif situation == "asking human":
            slip = pending.pop(0)
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
            situation = "errands"
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


def sticky_asks_on_any_args_error(llm, registry, question, human, *, max_steps=10):
    """Runs every slip and asks the human whenever the registry refuses one, a slip filled in wrong included."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer, pending = "waiting", 0, None, []
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            if response.message.tool_calls:
                situation, pending = "errands", list(response.message.tool_calls)
            else:
                answer, situation = response.message.content, "hung up"
        elif situation == "errands":
            situation = "waiting"
            while pending:
                try:
                    folder.append(registry.run(pending[0]))
                except ToolArgsError:
                    situation = "asking human"
                    break
                pending.pop(0)
        elif situation == "asking human":
            slip = pending.pop(0)
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
            situation = "errands"
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


def sticky_returns_a_note(llm, registry, question, human, *, max_steps=10):
    """Right until the ceiling, where it puts a note in the answer slot instead of raising."""
    try:
        return sticky_note_loop_with_human(llm, registry, question, human, max_steps=max_steps)
    except StepLimitReached:
        return "Stopped: reached the step limit."


def _plain_loop(errands):
    """A loop without a note, whose ``errands(folder, slips, registry, human)`` answers one reply's slips."""

    def loop(llm, registry, question, human, *, max_steps=10):
        folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
        for _ in range(max_steps):
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            if not response.message.tool_calls:
                return response.message.content
            errands(folder, response.message.tool_calls, registry, human)
        raise StepLimitReached("no answer", steps=max_steps)

    return loop


@_plain_loop
def sticky_asks_about_every_city(folder, slips, registry, human):
    for slip in slips:
        if slip.name == "get_weather":
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
        else:
            folder.append(registry.run(slip))


@_plain_loop
def sticky_forgets_the_rest(folder, slips, registry, human):
    """Asks the human, but drops the slips that came after the unknown city in the same reply."""
    for slip in slips:
        if slip.name == "get_weather" and not knows(slip.arguments["city"]):
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
            break
        folder.append(registry.run(slip))


@_plain_loop
def sticky_with_a_made_up_ticket(folder, slips, registry, human):
    """Answers the unknown city under a ticket number of its own, not the slip's id."""
    for slip in slips:
        if slip.name == "get_weather" and not knows(slip.arguments["city"]):
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id="human", name=slip.name))
        else:
            folder.append(registry.run(slip))


@_plain_loop
def sticky_with_a_case_sensitive_test(folder, slips, registry, human):
    """Tests the city with `in WEATHER`, so " paris" (which get_weather knows) goes to the human."""
    for slip in slips:
        if slip.name == "get_weather" and slip.arguments["city"] not in WEATHER:
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
        else:
            folder.append(registry.run(slip))


@_plain_loop
def sticky_checks_every_slip_for_a_city(folder, slips, registry, human):
    """Reads a city off every slip, to_fahrenheit's included."""
    for slip in slips:
        if not knows(slip.arguments["city"]):
            folder.append(ToolMessage(human(slip.arguments["city"]), slip.id, name=slip.name))
        else:
            folder.append(registry.run(slip))


@_plain_loop
def sticky_asks_inside_errands(folder, slips, registry, human):
    """Right answers, but no "asking human" note: the human is asked inside the errands branch."""
    for slip in slips:
        if slip.name == "get_weather" and not knows(slip.arguments["city"]):
            folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
        else:
            folder.append(registry.run(slip))


@_plain_loop
def sticky_without_the_human(folder, slips, registry, human):
    for slip in slips:
        folder.append(registry.run(slip))


def sticky_with_a_dead_branch(llm, registry, question, human, *, max_steps=10):
    """Asks inside the errands branch, and adds an "asking human" branch that never runs."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer = "waiting", 0, None
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            folder.append(llm.generate(folder, registry.tools).message)
            if folder[-1].tool_calls:
                situation = "errands"
            else:
                answer, situation = folder[-1].content, "hung up"
        elif situation == "errands":
            for slip in folder[-1].tool_calls:
                if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                    folder.append(ToolMessage(human(slip.arguments["city"]), slip.id, name=slip.name))
                else:
                    folder.append(registry.run(slip))
            situation = "waiting"
        elif situation == "asking human":
            pass
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


class _AskFirst:
    """A registry that asks the human about unknown cities and runs the rest: the given loop never sees them."""

    def __init__(self, registry, human):
        self.registry, self.human, self.tools = registry, human, registry.tools

    def run(self, slip):
        if slip.name == "get_weather" and not knows(slip.arguments["city"]):
            situation = "asking human"  # named for show: the given loop's note never says it  # noqa: F841
            return ToolMessage(self.human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name)
        return self.registry.run(slip)


def sticky_wraps_the_given_loop(llm, registry, question, human, *, max_steps=10):
    """Round 20's reader: the given sticky_note_loop, with a registry that asks the human."""
    from lessons.sticky_note import sticky_note_loop

    situation = "asking human"  # noqa: F841
    return sticky_note_loop(llm, _AskFirst(registry, human), question, max_steps=max_steps)


def sticky_sets_the_note_for_show(llm, registry, question, human, *, max_steps=10):
    """Round 20's reader: asks inside the errands branch, setting the note to "asking human" just before."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer = "waiting", 0, None
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                situation = "hung up"
                continue
            step += 1
            response = llm.generate(folder, registry.tools)
            folder.append(response.message)
            situation = "errands" if response.message.tool_calls else "hung up"
            answer = None if response.message.tool_calls else response.message.content
        elif situation == "errands":
            for slip in response.message.tool_calls:
                if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                    situation = "asking human"
                    folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
                else:
                    folder.append(registry.run(slip))
            situation = "waiting"
    if answer is None:
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=step)
    return answer


def sticky_reads_the_slips_off_the_folder(llm, registry, question, human, *, max_steps=10):
    """No loose variable: the "asking human" branch looks for its slip in the folder's last message."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    situation, step, answer = "waiting", 0, None
    while situation != "hung up":
        if situation == "waiting":
            if step == max_steps:
                break
            step += 1
            folder.append(llm.generate(folder, registry.tools).message)
            situation = "errands" if folder[-1].tool_calls else "hung up"
            answer = None if folder[-1].tool_calls else folder[-1].content
        elif situation == "errands":
            situation = "waiting"
            for slip in folder[-1].tool_calls:
                if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                    situation = "asking human"
                    break
                folder.append(registry.run(slip))
        elif situation == "asking human":
            slip = next(s for s in folder[-1].tool_calls if s.name == "get_weather" and not knows(s.arguments["city"]))
            folder.append(ToolMessage(human(slip.arguments["city"]), slip.id, name=slip.name))
            situation = "errands"
    return answer


# --- 03.3 ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RunningToolsAskingHuman(PlainRunningTools):
    def run(self, desk) -> "AskingHuman | CallingModel":
        """The notebook's own answer to 03.3 (a reference answer, loaded unprinted)."""
        for i, slip in enumerate(self.slips):
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHuman(slip, self.slips[i + 1:], self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class AskingHuman:
    slip: ToolCall
    rest: tuple
    step: int

    def run(self, desk) -> "RunningToolsAskingHuman":
        answer = desk.human(self.slip.arguments["city"])
        desk.folder.append(ToolMessage(answer, tool_call_id=self.slip.id, name=self.slip.name))
        return RunningToolsAskingHuman(self.rest, self.step)


RunningTools = RunningToolsAskingHuman  # the edit, as the notebook makes it: CallingModel now hands over the card that checks


@dataclass(frozen=True)
class RunningToolsAskingInline(PlainRunningTools):
    """Asks the human inside the errands card: it works, but the new situation has no card of its own."""

    def run(self, desk):
        for slip in self.slips:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                desk.folder.append(ToolMessage(desk.human(slip.arguments["city"]), slip.id, name=slip.name))
            else:
                desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class AskingHumanStartsOver:
    """Hands back every slip of the reply, so the one it answered is asked about again and again."""

    slip: ToolCall
    slips: tuple
    step: int

    def run(self, desk):
        desk.folder.append(ToolMessage(desk.human(self.slip.arguments["city"]), self.slip.id, name=self.slip.name))
        return RunningToolsStartingOver(self.slips, self.step)


@dataclass(frozen=True)
class RunningToolsStartingOver(PlainRunningTools):
    def run(self, desk):
        for slip in self.slips:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHumanStartsOver(slip, self.slips, self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class RunningToolsToAPlainHandBack(RunningToolsAskingHuman):
    def run(self, desk):
        card = super().run(desk)
        return AskingHumanHandsBackPlain(card.slip, card.rest, card.step) if isinstance(card, AskingHuman) else card


@dataclass(frozen=True)
class AskingHumanHandsBackPlain(AskingHuman):
    """Hands the slips left to the old RunningTools card, which runs a second unknown city without checking it."""

    def run(self, desk):
        desk.folder.append(ToolMessage(desk.human(self.slip.arguments["city"]), self.slip.id, name=self.slip.name))
        return PlainRunningTools(self.rest, self.step)


@dataclass(frozen=True)
class RunningToolsAsksThenHandsOver(PlainRunningTools):
    """Asks the human itself, then hands over an AskingHuman that only passes the slips left on."""

    def run(self, desk):
        for i, slip in enumerate(self.slips):
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                desk.folder.append(ToolMessage(desk.human(slip.arguments["city"]), slip.id, name=slip.name))
                return AskingHumanPassesOn(slip, self.slips[i + 1:], self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class AskingHumanPassesOn(AskingHuman):
    def run(self, desk):
        return RunningToolsAsksThenHandsOver(self.rest, self.step)


@dataclass(frozen=True)
class RunningToolsToAStepAhead(RunningToolsAskingHuman):
    def run(self, desk):
        card = super().run(desk)
        return AskingHumanStepsAhead(card.slip, card.rest, card.step) if isinstance(card, AskingHuman) else card


@dataclass(frozen=True)
class AskingHumanStepsAhead(AskingHuman):
    """Counts asking the human as a step: the ceiling would come early."""

    def run(self, desk):
        desk.folder.append(ToolMessage(desk.human(self.slip.arguments["city"]), self.slip.id, name=self.slip.name))
        return RunningToolsToAStepAhead(self.rest, self.step + 1)


@dataclass(frozen=True)
class RunningToolsAsksOnAnyArgsError(PlainRunningTools):
    """Runs every slip and hands over AskingHuman whenever the registry refuses one, a miswritten slip included."""

    def run(self, desk):
        for i, slip in enumerate(self.slips):
            try:
                desk.folder.append(desk.registry.run(slip))
            except ToolArgsError:
                return AskingHumanToTheCatcher(slip, self.slips[i + 1:], self.step)
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class AskingHumanToTheCatcher(AskingHuman):
    def run(self, desk):
        desk.folder.append(ToolMessage(desk.human(self.slip.arguments.get("city", "?")), self.slip.id,
                                       name=self.slip.name))
        return RunningToolsAsksOnAnyArgsError(self.rest, self.step)


@dataclass(frozen=True)
class RunningToolsRunsFirst(PlainRunningTools):
    """Runs the slip, then checks the city: get_weather has already refused it."""

    def run(self, desk):
        for i, slip in enumerate(self.slips):
            desk.folder.append(desk.registry.run(slip))
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHuman(slip, self.slips[i + 1:], self.step)
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class RunningToolsForgetsTheRest(PlainRunningTools):
    """Makes AskingHuman without the slips after the unknown one (a field is missing)."""

    def run(self, desk):
        for slip in self.slips:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHuman(slip, self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class RunningToolsReadsEveryCity(PlainRunningTools):
    """Reads a city off every slip, to_fahrenheit's included."""

    def run(self, desk):
        for i, slip in enumerate(self.slips):
            if not knows(slip.arguments["city"]):
                return AskingHuman(slip, self.slips[i + 1:], self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


@dataclass(frozen=True)
class RunningToolsCaseSensitive(PlainRunningTools):
    """Tests the city with `in WEATHER`, so " paris" (which get_weather knows) goes to the human."""

    def run(self, desk):
        for i, slip in enumerate(self.slips):
            if slip.name == "get_weather" and slip.arguments["city"] not in WEATHER:
                return AskingHuman(slip, self.slips[i + 1:], self.step)
            desk.folder.append(desk.registry.run(slip))
        return CallingModel(self.step + 1)


# --- Questions ----------------------------------------------------------------------------------

Q3_ANSWER = {"answer slips": 3, "marked is_error": 2}

QUESTIONS = {
    "03.Q1": "Five: RunningToolsAskingHuman (runs Paris), AskingHuman (Reykjavik), RunningToolsAskingHuman "
             "(Quito left), AskingHuman (Quito), RunningToolsAskingHuman (nothing left), which hands over "
             "CallingModel.",
    "03.Q2": "b. The ceiling is checked against the card's step, and nothing raises it any more: a manager that "
             "never stops is called again and again, with no limit.",
    "03.Q3": "Three answer slips, two marked is_error: the first slip ran and its answer slip is its result; the "
             "failing tool's slip says it failed, and the one after it that it was not run. The folder stays a "
             "valid conversation.",
    "03.Q4": "The folder: it is what has happened, and the card can be rebuilt from it (the last message says "
             "whether slips are still open or the model has answered). The card alone says nothing of the past.",
    "03.Q5": "The slips after the unknown one would never run and never get answer slips: their cities go unasked, "
             "and the folder ends the round with open slips, a conversation OpenAI's chat API refuses (error 400), "
             "for this run and every later one on the same folder.",
}


SOLUTIONS = {"03.1": expected_cards, "03.2": sticky_note_loop_with_human,
             "03.3": (RunningToolsAskingHuman, AskingHuman),
             "03.Q1": 5, "03.Q2": "b", "03.Q3": Q3_ANSWER}

WRONG = {
    "03.1": [(cards_one_per_slip, "however many slips"), (cards_no_extra_at_the_limit, "one more CallingModel"),
             (cards_by_running, "runs a manager"), (cards_by_card_loop, "runs a manager"), (cards_up_to_the_answer, "first reply that is the answer"),
             (cards_with_underscores, "without the leading underscore"),
             (cards_stopping_a_call_early, "(>, not >=)"), (cards_falling_off_at_the_ceiling, "returned None"),
             (cards_raising_at_the_limit, "your function raised StepLimitReached")],
    "03.2": [(sticky_asks_about_every_city, "exactly the unknown cities"),
             (sticky_forgets_the_rest, "must still run"),
             (sticky_with_a_made_up_ticket, "no slip has"),
             (sticky_without_the_human, "check the city before running"),
             (sticky_reads_the_slips_off_the_folder, "the folder's last message"),
             (sticky_checks_every_slip_for_a_city, "only get_weather slips carry a city"),
             (sticky_returns_a_note, "instead of raising StepLimitReached"),
             (sticky_asks_on_any_args_error, "slip filled in wrong"),
             (sticky_asks_inside_errands, 'began with the note not saying "asking human"'),
             (sticky_with_a_dead_branch, 'began with the note not saying "asking human"'),
             (sticky_sets_the_note_for_show, 'began with the note not saying "asking human"'),
             (sticky_wraps_the_given_loop, "runs the given sticky_note_loop"),
             (sticky_with_a_case_sensitive_test, "use knows(city)")],
    "03.3": [((RunningToolsAskingInline, AskingHuman), "on its own card"),
             ((RunningToolsStartingOver, AskingHumanStartsOver), "hand each other over forever"),
             ((RunningToolsAsksThenHandsOver, AskingHumanPassesOn), "not in the errands card"),
             ((RunningToolsToAPlainHandBack, AskingHumanHandsBackPlain), "hand back RunningToolsAskingHuman"),
             ((RunningToolsRunsFirst, AskingHuman), "check the city before running"),
             ((RunningToolsToAStepAhead, AskingHumanStepsAhead), "hands the same step back"),
             ((RunningToolsForgetsTheRest, AskingHuman), "AskingHuman(slip, rest, step)"),
             ((RunningToolsReadsEveryCity, AskingHuman), "only get_weather slips carry a city"),
             ((RunningToolsCaseSensitive, AskingHuman), "use knows(city)"),
             ((RunningToolsAsksOnAnyArgsError, AskingHumanToTheCatcher), "slip filled in wrong")],
    "03.Q1": [(3, "the last errands card"), (4, "the last errands card")],
    "03.Q2": [("a", "which card raises it"), ("c", "which card raises it")],
    "03.Q3": [({"answer slips": 2, "marked is_error": 1}, "every slip of the reply"),
              ({"answer slips": 3, "marked is_error": 3}, "ran fine"),
              ({"answer slips": 3, "marked is_error": 1}, "not run")],
}
