"""Reference answers for notebook 12 (the capstone's pieces), and plausible wrong ones with the hint each must get."""

import json

from mingraph_lite import (EventRecorder, LastN, Observer, SystemMessage, ToolArgsError,
                           ToolMessage)
from mingraph_lite.graph import END, Send
from mingraph_lite.observers.base import RecordingObserver

# --- 12.1: a memory window that keeps the question -------------------------------------------------


def pinned_window(system_prompt, messages, n):
    """The notebook's own answer to 12.1 (a reference answer, loaded unprinted)."""
    question, rest = messages[0], list(messages[1:])
    start = max(0, len(rest) - n)
    while start > 0 and isinstance(rest[start], ToolMessage):
        start -= 1  # a ToolMessage keeps the reply that asked for it
    return [SystemMessage(system_prompt), question, *rest[start:]]


def _whole_window(messages, n):
    start = max(0, len(messages) - n)
    while start > 0 and isinstance(messages[start], ToolMessage):
        start -= 1
    return list(messages[start:])


def window_forgets_the_question(system_prompt, messages, n):
    return [SystemMessage(system_prompt), *_whole_window(messages, n)]


def window_cuts_exchanges(system_prompt, messages, n):
    return [SystemMessage(system_prompt), messages[0], *messages[1:][-n:]]


def window_question_twice(system_prompt, messages, n):
    return [SystemMessage(system_prompt), messages[0], *_whole_window(messages, n)]


def window_counts_the_question(system_prompt, messages, n):  # n - 1 later messages, as if the question were one
    question, rest = messages[0], list(messages[1:])
    start = len(rest) - (n - 1) if n > 1 else len(rest)
    start = max(0, start)
    while 0 < start < len(rest) and isinstance(rest[start], ToolMessage):
        start -= 1
    return [SystemMessage(system_prompt), question, *rest[start:]]


def window_moves_forward(system_prompt, messages, n):
    question, rest = messages[0], list(messages[1:])
    start = max(0, len(rest) - n)
    while start < len(rest) and isinstance(rest[start], ToolMessage):
        start += 1
    return [SystemMessage(system_prompt), question, *rest[start:]]


def window_back_too_far(system_prompt, messages, n):
    question, rest = messages[0], list(messages[1:])
    start = max(0, len(rest) - n)
    if isinstance(rest[start:start + 1] and rest[start], ToolMessage):
        start = 0  # back to the beginning: whole, but far more than the exchange needs
    return [SystemMessage(system_prompt), question, *rest[start:]]


def window_from_lastn(system_prompt, messages, n):
    memory = LastN(system_prompt, n)
    for message in messages[1:]:
        memory.add(message)
    return [SystemMessage(system_prompt), messages[0], *memory.messages()[1:]]


def window_by_safe_start(system_prompt, messages, n):
    from mingraph_lite.memory import safe_start
    rest = list(messages[1:])
    return [SystemMessage(system_prompt), messages[0], *rest[safe_start(rest, len(rest) - n):]]


# --- 12.2: the errand for one ToolCall, with this task's retry -------------------------------------------


def errand(registry, call):
    """The notebook's own answer to 12.2 (a reference answer, loaded unprinted)."""
    try:
        return registry.run(call)
    except ToolArgsError as e:  # the model filled the call in wrong: trying again would fail the same way
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)
    except Exception:  # the service may be back a moment later: one more try
        try:
            return registry.run(call)
        except Exception as e:  # still down: the model cannot fix it, but the call gets its answer
            return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name, is_error=True)


def errand_raises_on_failure(registry, call):
    try:
        return registry.run(call)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)


def errand_without_retry(registry, call):  # notebook 03's two excepts, as they were
    try:
        return registry.run(call)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)
    except Exception as e:
        return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name, is_error=True)


def errand_retries_everything(registry, call):
    for attempt in range(2):
        try:
            return registry.run(call)
        except ToolArgsError as e:
            if attempt:
                return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name,
                                   is_error=True)
        except Exception as e:
            if attempt:
                return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name, is_error=True)


def errand_until_it_works(registry, call):
    for _ in range(5):
        try:
            return registry.run(call)
        except ToolArgsError as e:
            return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)
        except Exception as e:
            error = e
    return ToolMessage(f"Error: tool failed twice: {error}", call.id, name=call.name, is_error=True)


def errand_one_wording(registry, call):
    try:
        return registry.run(call)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)
    except Exception:
        try:
            return registry.run(call)
        except Exception as e:
            return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)


def errand_nested(registry, call):  # wraps registry.run's ToolMessage in another
    try:
        return ToolMessage(registry.run(call), call.id, name=call.name)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name, is_error=True)
    except Exception:
        try:
            return ToolMessage(registry.run(call), call.id, name=call.name)
        except Exception as e:
            return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name, is_error=True)


def errand_not_flagged(registry, call):
    try:
        return registry.run(call)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", call.id, name=call.name)
    except Exception:
        try:
            return registry.run(call)
        except Exception as e:
            return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name)


def errand_by_the_package(registry, call):
    try:
        return registry.answer(call)
    except Exception:
        try:
            return registry.answer(call)
        except Exception as e:
            return ToolMessage(f"Error: tool failed twice: {e}", call.id, name=call.name, is_error=True)


def errand_by_package_helpers(registry, call):
    from mingraph_lite.tools import error_answer, fix_answer
    try:
        return registry.run(call)
    except ToolArgsError as e:
        return fix_answer(call, e)
    except Exception:
        try:
            return registry.run(call)
        except Exception as e:
            return error_answer(call, f"tool failed twice: {e}")


# --- 12.3: a listener that writes the task's price log -------------------------------------------


class PriceLog(Observer):
    def __init__(self, path):
        self.path, self.asked, self.model_calls = path, {}, 0

    def write(self, line):
        """The notebook's own answer to 12.3 (a reference answer, loaded unprinted)."""
        with open(self.path, "a", encoding="utf-8") as file:  # one line at a time: a crash keeps the rest
            file.write(json.dumps(line) + "\n")

    def on_run_start(self, messages):
        self.asked, self.model_calls = {}, 0

    def on_model_reply(self, response):
        self.model_calls += 1

    def on_tool_call(self, call):
        self.asked[call.id] = call

    def on_tool_return(self, result):
        call = self.asked.get(result.tool_call_id)
        self.write({"tool": result.name, "arguments": dict(call.arguments) if call else None,
                    "result": result.content, "error": result.is_error})

    def on_finish(self, answer, reason):
        self.write({"answer": answer, "reason": reason, "model_calls": self.model_calls})


class LogWritesToolErrors(PriceLog):  # a second line for a failure that on_tool_return logs anyway
    def on_tool_error(self, call, error):
        self.write({"tool": call.name, "arguments": dict(call.arguments), "result": str(error), "error": True})


class LogArgumentsAsText(PriceLog):  # the arguments as a JSON string inside the JSON line
    def on_tool_return(self, result):
        call = self.asked.get(result.tool_call_id)
        self.write({"tool": result.name, "arguments": json.dumps(dict(call.arguments)) if call else None,
                    "result": result.content, "error": result.is_error})


class LogEmptiesOnStart(PriceLog):  # a fresh file in __init__, "w": the lines it held are lost
    def __init__(self, path):
        super().__init__(path)
        open(path, "w").close()


class LogCountsSlips(PriceLog):
    def on_tool_call(self, call):
        super().on_tool_call(call)
        self.model_calls += 1

    def on_model_reply(self, response):
        pass


class LogOverwrites(PriceLog):
    def write(self, line):
        with open(self.path, "w", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")


class LogRewritesAll(PriceLog):  # the whole log again each time, with "w": a file's earlier lines are lost
    def __init__(self, path):
        super().__init__(path)
        self.lines = []

    def write(self, line):
        self.lines.append(line)
        with open(self.path, "w", encoding="utf-8") as file:
            file.writelines(json.dumps(held) + "\n" for held in self.lines)


class LogCountsSteps(PriceLog):  # steps begun, not replies: they differ when a model call raises
    def on_step_start(self, step):
        self.model_calls = step

    def on_model_reply(self, response):
        pass


class LogNeverResets(PriceLog):
    def on_run_start(self, messages):
        pass


class LogKeepsOldCalls(PriceLog):
    def on_run_start(self, messages):  # counts each run's replies, but keeps the ids of earlier runs
        self.model_calls = 0


class LogWithoutErrors(PriceLog):
    def write(self, line):
        super().write({**line, "error": False} if "error" in line else line)


class LogLastCall(PriceLog):
    def on_tool_call(self, call):  # the last call heard, not the call with the answer's id
        self.last = call

    def on_tool_return(self, result):
        self.write({"tool": result.name, "arguments": dict(self.last.arguments), "result": result.content,
                    "error": result.is_error})


class LogHoldsLines(PriceLog):  # writes everything at the finish: a crash mid-run loses the lot
    def __init__(self, path):
        super().__init__(path)
        self.held = []

    def write(self, line):
        self.held.append(line)
        if "reason" in line:
            for held in self.held:
                super().write(held)
            self.held = []


class LogByRecorder(PriceLog):
    def __init__(self, path):
        super().__init__(path)
        self.recorder = EventRecorder()


class LogOnRecorder(PriceLog, RecordingObserver):  # the hooks it does not write go to RecordingObserver.record
    def __init__(self, path):
        RecordingObserver.__init__(self)
        PriceLog.__init__(self, path)


# --- 12.4: the router: one branch per ToolCall -------------------------------------------------------


def route(state):
    """The notebook's own answer to 12.4 (a reference answer, loaded unprinted)."""
    if state["stopped"]:
        return END
    last = state["messages"][-1]
    if state["calls_left"] < 0:
        return "give_up"
    return [Send("errand", {"call": call}) for call in last.tool_calls]


def route_one_branch(state):
    if state["stopped"]:
        return END
    return "give_up" if state["calls_left"] < 0 else "errand"


def route_without_budget(state):
    if state["stopped"]:
        return END
    return [Send("errand", {"call": call}) for call in state["messages"][-1].tool_calls]


def route_whole_batch(state):
    if state["stopped"]:
        return END
    if state["calls_left"] < 0:
        return "give_up"
    return [Send("errand", {"call": state["messages"][-1].tool_calls})]


def route_budget_off_by_one(state):
    if state["stopped"]:
        return END
    if state["calls_left"] <= 0:
        return "give_up"
    return [Send("errand", {"call": call}) for call in state["messages"][-1].tool_calls]


def route_whole_run(state):  # every ToolCall of the run, the answered ones of earlier replies too
    if state["stopped"]:
        return END
    if state["calls_left"] < 0:
        return "give_up"
    return [Send("errand", {"call": call}) for m in state["messages"] for call in getattr(m, "tool_calls", ())]


def route_first_message(state):  # reads the run's first message, which is the question
    if state["stopped"]:
        return END
    if state["calls_left"] < 0:
        return "give_up"
    return [Send("errand", {"call": call}) for call in state["messages"][0].tool_calls]


def route_budget_first(state):  # tests the budget before stopped: a stopped run can still be sent to give_up
    if state["calls_left"] < 0:
        return "give_up"
    if state["stopped"]:
        return END
    return [Send("errand", {"call": call}) for call in state["messages"][-1].tool_calls]


# --- questions -------------------------------------------------------------------------------------

QUESTIONS = {
    "12.Q1": "B. The question is pinned, but with n=2 the third call reads only the newest exchange (the to_usd "
             "ToolCalls and their ToolMessages), not which city each price came from, so the manager says "
             "'I lost track of the prices.'",
    "12.Q2": "4. The first ToolCall meets requests 1 and 2, both dropped: two runs, then 'Error: tool failed twice'. "
             "The second and third ToolCalls get requests 3 and 4, which work at the first try: one run each.",
    "12.Q3": "A. A superstep whose node raises merges nothing of itself, and only of itself: the three squares "
             "were merged when their superstep ended, before audit ran in the next one, so the last state reached "
             "holds [9, 1, 16].",
    "12.Q4": "Each branch returns only the ToolMessage it adds, and `messages: Annotated[list, operator.add]` "
             "merges the branches' updates by concatenating them. Two branches writing a plain field in one "
             "superstep are an error, on this engine and on LangGraph.",
    "12.Q5": "The model would be read a ToolMessage whose ToolCall it cannot see: OpenAI's API rejects such a "
             "conversation, and a model that accepted it would read '450 JPY = 2.97 USD' without knowing which city it "
             "belongs to (the result names its amount, not its city).",
}

SOLUTIONS = {"12.1": pinned_window, "12.2": errand, "12.3": PriceLog, "12.4": route,
             "12.Q1": "B", "12.Q2": 4, "12.Q3": "A"}

WRONG = {
    "12.1": [(window_forgets_the_question, "the question"),
             (window_cuts_exchanges, "without the assistant message that asked for it"),
             (window_question_twice, "twice"),
             (window_counts_the_question, "pinned on top of them"),
             (window_moves_forward, "move it back"),
             (window_back_too_far, "a later start"),
             (window_from_lastn, "LastN"),
             (window_by_safe_start, "safe_start")],
    "12.2": [(errand_raises_on_failure, "raised"),
             (errand_without_retry, "one more try"),
             (errand_retries_everything, "fails the same way again"),
             (errand_until_it_works, "only one"),
             (errand_one_wording, "tool failed twice"),
             (errand_not_flagged, "is_error"),
             (errand_nested, "already returns a ToolMessage"),
             (errand_by_the_package, "registry.answer"),
             (errand_by_package_helpers, "fix_answer")],
    "12.3": [(LogWritesToolErrors, "on_tool_error must not write another"),
             (LogArgumentsAsText, "store the dict"),
             (LogCountsSlips, "model replies"),
             (LogOverwrites, "append"),
             (LogRewritesAll, "empties it first"),
             (LogEmptiesOnStart, "in __init__ too"),
             (LogCountsSteps, "steps begun"),
             (LogNeverResets, "each run"),
             (LogKeepsOldCalls, "ids start again each run"),
             (LogWithoutErrors, "is_error"),
             (LogByRecorder, "EventRecorder"),
             (LogLastCall, "tool_call_id"),
             (LogHoldsLines, "crashes"),
             (LogOnRecorder, "inherits from the package")],
    "12.4": [(route_one_branch, "Send"),
             (route_without_budget, "budget"),
             (route_whole_batch, "one ToolCall"),
             (route_budget_off_by_one, "exactly"),
             (route_whole_run, "earlier replies"),
             (route_first_message, "the first is the question"),
             (route_budget_first, "whenever stopped is set")],
    "12.Q1": [("A", "newest exchange"), ("C", "newest exchange")],
    "12.Q2": [(6, "no third try"), (3, "one more try"), ("four", "whole number")],
    "12.Q3": [("B", "only of itself"), ("C", "only of itself"), ("a b", "one letter")],
}
