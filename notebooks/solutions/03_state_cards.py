"""Reference answers for notebook 03's exercises, and plausible wrong ones with the hint each must get.

The card answers refer to the notebook's own ``Waiting`` card and ``knows``; minimal copies of both
are defined here, so this file runs on its own.
"""

# (no `from __future__ import annotations`: dataclasses here are loaded from a file path, outside sys.modules)
from dataclasses import dataclass

from mingraph_lite import StepLimitReached, SystemMessage, ToolCall, ToolMessage, UserMessage
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.course.weather import WEATHER


def knows(city):
    return city.strip().lower() in {name.lower() for name in WEATHER}


@dataclass(frozen=True)
class Waiting:
    step: int


@dataclass(frozen=True)
class Errands:
    slips: tuple
    step: int


# --- 03.1 ---------------------------------------------------------------------------------------

def expected_cards(replies, max_steps):
    cards = []
    for step, slips in enumerate(replies, start=1):
        if step > max_steps:
            return [*cards, "CallingModel", "Finished"]  # picked up, makes no call, hands over Finished
        cards.append("CallingModel")
        if not slips:
            return [*cards, "Finished"]
        cards.append("RunningTools")
    return [*cards, "CallingModel", "Finished"]


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


# --- 03.2 ---------------------------------------------------------------------------------------

def sticky_note_loop_with_human(llm, registry, question, human, *, max_steps=10):
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


def sticky_asks_about_every_city(llm, registry, question, human, *, max_steps=10):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for _ in range(max_steps):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            if slip.name == "get_weather":
                folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
            else:
                folder.append(registry.run(slip))
    raise StepLimitReached("no answer", steps=max_steps)


def sticky_forgets_the_rest(llm, registry, question, human, *, max_steps=10):
    """Asks the human, but drops the slips that came after the unknown city in the same reply."""
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for _ in range(max_steps):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                folder.append(ToolMessage(human(slip.arguments["city"]), tool_call_id=slip.id, name=slip.name))
                break
            folder.append(registry.run(slip))
    raise StepLimitReached("no answer", steps=max_steps)


def sticky_without_the_human(llm, registry, question, human, *, max_steps=10):
    folder = [SystemMessage(SYSTEM_PROMPT), UserMessage(question)]
    for _ in range(max_steps):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            folder.append(registry.run(slip))
    raise StepLimitReached("no answer", steps=max_steps)


# --- 03.3 ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ErrandsAskingHuman(Errands):
    def run(self, desk):
        for i, slip in enumerate(self.slips):
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHuman(slip, self.slips[i + 1:], self.step)
            desk.folder.append(desk.registry.run(slip))
        return Waiting(self.step + 1)


@dataclass(frozen=True)
class AskingHuman:
    slip: ToolCall
    rest: tuple
    step: int

    def run(self, desk):
        answer = desk.human(self.slip.arguments["city"])
        desk.folder.append(ToolMessage(answer, tool_call_id=self.slip.id, name=self.slip.name))
        return ErrandsAskingHuman(self.rest, self.step)


@dataclass(frozen=True)
class ErrandsAskingInline(Errands):
    """Asks the human inside the errands card: it works, but the new situation has no card of its own."""

    def run(self, desk):
        for slip in self.slips:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                desk.folder.append(ToolMessage(desk.human(slip.arguments["city"]), slip.id, name=slip.name))
            else:
                desk.folder.append(desk.registry.run(slip))
        return Waiting(self.step + 1)


@dataclass(frozen=True)
class AskingHumanStartsOver:
    """Hands back every slip of the reply, so the one it answered is asked about again and again."""

    slip: ToolCall
    slips: tuple
    step: int

    def run(self, desk):
        desk.folder.append(ToolMessage(desk.human(self.slip.arguments["city"]), self.slip.id, name=self.slip.name))
        return ErrandsStartingOver(self.slips, self.step)


@dataclass(frozen=True)
class ErrandsStartingOver(Errands):
    def run(self, desk):
        for slip in self.slips:
            if slip.name == "get_weather" and not knows(slip.arguments["city"]):
                return AskingHumanStartsOver(slip, self.slips, self.step)
            desk.folder.append(desk.registry.run(slip))
        return Waiting(self.step + 1)


# --- 03.4 ---------------------------------------------------------------------------------------

WHO_FIXES = {
    "get_forecast with days='three'": "model",
    "get_forecast for Oslo, 3 days, service down": "caller",
    "to_fahrenheit with celsius=-400": "model",
    "a tool called get_humidity": "model",
}


SOLUTIONS = {"03.1": expected_cards, "03.2": sticky_note_loop_with_human,
             "03.3": (ErrandsAskingHuman, AskingHuman), "03.4": WHO_FIXES}

WRONG = {
    "03.1": [(cards_one_per_slip, "however many slips"), (cards_no_extra_at_the_limit, "one more CallingModel")],
    "03.2": [(sticky_asks_about_every_city, "exactly the unknown cities"),
             (sticky_forgets_the_rest, "must still run"),
             (sticky_without_the_human, "check the city before running")],
    "03.3": [((ErrandsAskingInline, AskingHuman), "on its own card"),
             ((ErrandsStartingOver, AskingHumanStartsOver), "hand each other over forever")],
    "03.4": [({**WHO_FIXES, "to_fahrenheit with celsius=-400": "caller"}, "could a better slip fix it"),
             ({**WHO_FIXES, "get_forecast for Oslo, 3 days, service down": "model"}, "could a better slip fix it")],
}
