"""Reference answers for notebook 14 (the capstone's real runs), and plausible wrong ones with the hint each must get.
Every agent here builds on notebook 13's own PriceAgent, loaded unprinted as the notebook loads it."""

from lessons.reference import reference

PriceAgent = reference("13.3")  # notebook 13's own agent, the finished one

# --- 14.1: an agent that stops a repeated batch --------------------------------------------------


def _asks(reply):  # what a reply asks for, ids aside: a model makes up new ids every time
    return [(call.name, call.arguments) for call in reply.tool_calls]


class StopRepeats(PriceAgent):
    def model(self, state):
        """The notebook's own answer to 14.1 (a reference answer, loaded unprinted)."""
        update = super().model(state)
        new = update.get("messages", [])
        before = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
        if new and new[-1].tool_calls and before and _asks(new[-1]) == _asks(before[-1]):
            return {**update, "stopped": "repeated"}  # the router ends the run: the batch never runs
        return update


class RepeatsRunFirst(PriceAgent):
    def model(self, state):  # spots the repeat only before the next call, once the repeated batch has run
        replies = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
        if len(replies) >= 2 and _asks(replies[-1]) == _asks(replies[-2]):
            return {"stopped": "repeated"}
        return super().model(state)


class RepeatsByIds(StopRepeats):
    def model(self, state):  # compares the ToolCalls whole, ids too
        update = PriceAgent.model(self, state)
        new = update.get("messages", [])
        before = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
        if new and new[-1].tool_calls and before and list(new[-1].tool_calls) == list(before[-1].tool_calls):
            return {**update, "stopped": "repeated"}
        return update


class RepeatsByNames(PriceAgent):
    def model(self, state):  # the same tools, whatever their arguments
        update = super().model(state)
        new = update.get("messages", [])
        before = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
        if new and new[-1].tool_calls and before and [c.name for c in new[-1].tool_calls] == [
                c.name for c in before[-1].tool_calls]:
            return {**update, "stopped": "repeated"}
        return update


class RepeatsOfAnyReply(PriceAgent):
    def model(self, state):  # any earlier reply, not only the one just before
        update = super().model(state)
        new = update.get("messages", [])
        earlier = [_asks(m) for m in state["messages"] if getattr(m, "tool_calls", None)]
        if new and new[-1].tool_calls and _asks(new[-1]) in earlier:
            return {**update, "stopped": "repeated"}
        return update


class RepeatsInAnyOrder(PriceAgent):
    def model(self, state):  # the same ToolCalls in any order (a sorted comparison)
        update = super().model(state)
        new = update.get("messages", [])
        before = [m for m in state["messages"] if getattr(m, "tool_calls", None)]
        if new and new[-1].tool_calls and before and sorted(map(repr, _asks(new[-1]))) == sorted(
                map(repr, _asks(before[-1]))):
            return {**update, "stopped": "repeated"}
        return update


class RepeatsAsStepLimit(StopRepeats):
    def model(self, state):  # stops, but under another run's reason
        update = super().model(state)
        return {**update, "stopped": "step limit"} if update.get("stopped") == "repeated" else update


# --- 14.3: a run that refuses Gemma's placeholder --------------------------------------------


def is_placeholder(text):  # the reply format's blank, copied instead of filled
    return "<your answer>" in text


class RefusePlaceholders(PriceAgent):
    def model(self, state):
        update = super().model(state)
        if update.get("stopped") == "answered" and is_placeholder(update["messages"][-1].content):
            return {**update, "stopped": "placeholder"}
        return update


class PlaceholderOtherWords(RefusePlaceholders):
    def model(self, state):
        update = super().model(state)
        return {**update, "stopped": "no answer"} if update.get("stopped") == "placeholder" else update


class PlaceholderToldAsAnswer(RefusePlaceholders):
    """A reader's pass: run() answers None, but on_finish still hears the placeholder text as the answer."""

    def tell(self, hook, *args):
        if hook == "on_finish" and args[1] == "placeholder":
            args = ("<your answer>", args[1])
        super().tell(hook, *args)


class ModelUnchanged(PriceAgent):
    def model(self, state):  # a model node that still ends every reply without ToolCalls 'answered'
        return super().model(state)


class RefusesEveryAnswer(PriceAgent):
    def model(self, state):
        update = super().model(state)
        return {**update, "stopped": "placeholder"} if update.get("stopped") == "answered" else update


class RefusesAngleBrackets(PriceAgent):  # any "<" counts as the blank, so "Rome: <1.50 USD" is refused too
    def model(self, state):
        update = super().model(state)
        stop = update.get("stopped") == "answered" and "<" in update["messages"][-1].content
        return {**update, "stopped": "placeholder"} if stop else update


class RefusesEveryBlankReply(PriceAgent):  # tests replies that ask for tools too
    def model(self, state):
        update = super().model(state)
        return {**update, "stopped": "placeholder"} if is_placeholder(update["messages"][-1].content) else update


# --- questions -------------------------------------------------------------------------------------

QUESTIONS = {
    "14.Q1": "Yes. Each later call is compared only on its newest messages (the last reply and its "
             "ToolMessages), and a window that keeps exchanges whole always keeps those, whatever n is. So the replay "
             "cannot notice what a window drops from the older part, not even the question after the first call; "
             "the check's scripted runs, which count what each call read, catch that.",
    "14.Q2": "A scripted manager answers whatever it is sent; a replay hands back the recorded replies only while "
             "the agent sends what the recorded agent sent: the question word for word, each reply followed by its "
             "ToolMessages in order. An agent that rewords the question passes every scripted run and fails the "
             "replay.",
    "14.Q3": "'step limit', after one model call: the ceiling is tested before the second call, so no second reply "
             "ever comes back to be compared with the first, and StopRepeats never sees a repeat.",
    "14.Q4": "A. Gemma's second reply asks for the same conversion twice, but inside one reply, and it differs from "
             "the first reply's prices: no repeat. Its third reply has no ToolCalls, so the run ends 'answered' "
             "after 3 model calls, the placeholder as its answer (14.3's agent is the one that refuses it).",
    "14.Q5": "A model writes new ids for every ToolCall, even when it asks for the very same thing again, so "
             "comparing ids would never find a repeat; names and arguments are what the call does.",
    "14.Q6": "In the model node, where the reply that would end the run 'answered' is first seen: there the run can "
             "still end with another reason, and run() and on_finish both hear it. A check in run() after the "
             "graph has finished would leave the log's finish line saying 'answered'.",
}

SOLUTIONS = {"14.1": StopRepeats, "14.2": ("to_usd", {"amount": 1.3, "currency": "EUR"}),
             "14.3": RefusePlaceholders, "14.Q1": "yes", "14.Q3": "step limit", "14.Q4": "A"}

WRONG = {
    "14.1": [(RepeatsRunFirst, "ran"),
             (RepeatsByIds, "ids"),
             (RepeatsByNames, "arguments"),
             (RepeatsOfAnyReply, "just before"),
             (RepeatsInAnyOrder, "in their order"),
             (RepeatsAsStepLimit, "'repeated'")],
    "14.2": [(("to_usd", {"amount": 450, "currency": "JPY"}), "already been asked for"),
             (("get_price", {"item": "coffee", "city": "Rome"}), "missing is a conversion"),
             (("to_usd", {"amount": 1.4, "currency": "EUR"}), "converts no price"),
             ("call_e5043ba409a5", "not with an id"), (3, "a pair")],
    "14.3": [(ModelUnchanged, "is_placeholder"), (PlaceholderOtherWords, "the reason 'placeholder'"),
             (PlaceholderToldAsAnswer, "on_finish heard"),
             (RefusesEveryAnswer, "still ends it 'answered'"),
             (RefusesEveryBlankReply, "asks for tools is no answer"),
             (RefusesAngleBrackets, "a '<' alone is no placeholder")],
    "14.Q1": [("no", "newest messages"), ("maybe", "yes")],
    "14.Q3": [("repeated", "second model call"), ("answered", "never answers"), ("stop", "a reason")],
    "14.Q4": [("B", "inside one reply"), ("C", "without ToolCalls"), ("answered", "one letter")],
}
