"""Reference answers for notebook 12 (the capstone), and plausible wrong ones with the hint each must get."""

import json
import operator
from typing import Annotated, TypedDict

from mingraph_lite import (EventRecorder, LastN, Observer, SystemMessage, ToolArgsError,
                           ToolMessage, UserMessage)
from mingraph_lite.graph import END, START, Send, StateGraph

# --- 12.1: a memory window that keeps the question -------------------------------------------------


def pinned_window(system_prompt, messages, n):
    question, rest = messages[0], list(messages[1:])
    start = max(0, len(rest) - n)
    while start > 0 and isinstance(rest[start], ToolMessage):
        start -= 1  # an answer slip keeps the reply that asked for it
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


# --- 12.2: the errand for one slip, with this task's retry -------------------------------------------


def errand(registry, slip):
    try:
        return registry.run(slip)
    except ToolArgsError as e:  # the model filled the slip in wrong: trying again would fail the same way
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)
    except Exception:  # the service may be back a moment later: one more try
        try:
            return registry.run(slip)
        except Exception as e:  # still down: the model cannot fix it, but the slip gets its answer
            return ToolMessage(f"Error: tool failed twice: {e}", slip.id, name=slip.name, is_error=True)


def errand_raises_on_failure(registry, slip):
    try:
        return registry.run(slip)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)


def errand_without_retry(registry, slip):  # notebook 03's two excepts, as they were
    try:
        return registry.run(slip)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)
    except Exception as e:
        return ToolMessage(f"Error: tool failed twice: {e}", slip.id, name=slip.name, is_error=True)


def errand_retries_everything(registry, slip):
    for attempt in range(2):
        try:
            return registry.run(slip)
        except ToolArgsError as e:
            if attempt:
                return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name,
                                   is_error=True)
        except Exception as e:
            if attempt:
                return ToolMessage(f"Error: tool failed twice: {e}", slip.id, name=slip.name, is_error=True)


def errand_until_it_works(registry, slip):
    for _ in range(5):
        try:
            return registry.run(slip)
        except ToolArgsError as e:
            return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)
        except Exception as e:
            error = e
    return ToolMessage(f"Error: tool failed twice: {error}", slip.id, name=slip.name, is_error=True)


def errand_one_wording(registry, slip):
    try:
        return registry.run(slip)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)
    except Exception:
        try:
            return registry.run(slip)
        except Exception as e:
            return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name, is_error=True)


def errand_not_flagged(registry, slip):
    try:
        return registry.run(slip)
    except ToolArgsError as e:
        return ToolMessage(f"Error: {e}\n Please fix your mistakes.", slip.id, name=slip.name)
    except Exception:
        try:
            return registry.run(slip)
        except Exception as e:
            return ToolMessage(f"Error: tool failed twice: {e}", slip.id, name=slip.name)


def errand_by_the_package(registry, slip):
    try:
        return registry.answer(slip)
    except Exception:
        try:
            return registry.answer(slip)
        except Exception as e:
            return ToolMessage(f"Error: tool failed twice: {e}", slip.id, name=slip.name, is_error=True)


def errand_by_package_helpers(registry, slip):
    from mingraph_lite.tools import error_answer, fix_answer
    try:
        return registry.run(slip)
    except ToolArgsError as e:
        return fix_answer(slip, e)
    except Exception:
        try:
            return registry.run(slip)
        except Exception as e:
            return error_answer(slip, f"tool failed twice: {e}")


# --- 12.3: a listener that writes the task's price log -------------------------------------------


class PriceLog(Observer):
    def __init__(self, path):
        self.path, self.asked, self.model_calls = path, {}, 0

    def write(self, line):
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


class LogNeverResets(PriceLog):
    def on_run_start(self, messages):
        pass


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


# --- 12.4: the router: one branch per slip -------------------------------------------------------


def route(state):
    if state["stopped"]:
        return END
    last = state["messages"][-1]
    if state["slips_left"] < 0:
        return "give_up"
    return [Send("errand", {"slip": slip}) for slip in last.tool_calls]


def route_one_branch(state):
    if state["stopped"]:
        return END
    return "give_up" if state["slips_left"] < 0 else "errand"


def route_without_budget(state):
    if state["stopped"]:
        return END
    return [Send("errand", {"slip": slip}) for slip in state["messages"][-1].tool_calls]


def route_whole_batch(state):
    if state["stopped"]:
        return END
    if state["slips_left"] < 0:
        return "give_up"
    return [Send("errand", {"slip": state["messages"][-1].tool_calls})]


def route_budget_off_by_one(state):
    if state["stopped"]:
        return END
    if state["slips_left"] <= 0:
        return "give_up"
    return [Send("errand", {"slip": slip}) for slip in state["messages"][-1].tool_calls]


def route_whole_run(state):  # every ToolCall of the run, the answered ones of earlier replies too
    if state["stopped"]:
        return END
    if state["slips_left"] < 0:
        return "give_up"
    return [Send("errand", {"slip": slip}) for m in state["messages"] for slip in getattr(m, "tool_calls", ())]


def route_first_message(state):  # reads the run's first message, which is the question
    if state["stopped"]:
        return END
    if state["slips_left"] < 0:
        return "give_up"
    return [Send("errand", {"slip": slip}) for slip in state["messages"][0].tool_calls]


def route_budget_first(state):  # tests the budget before stopped: a stopped run can still be sent to give_up
    if state["slips_left"] < 0:
        return "give_up"
    if state["stopped"]:
        return END
    return [Send("errand", {"slip": slip}) for slip in state["messages"][-1].tool_calls]


# --- 12.5: the agent, as a graph -----------------------------------------------------------------


class PriceState(TypedDict):
    messages: Annotated[list, operator.add]
    failed: Annotated[list, operator.add]
    model_calls: int
    slips_left: int
    stopped: str | None


BUDGET_SPENT = "Error: not run, because the slip budget is spent"


class PriceAgent:
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_slips=8, window=6):
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.observers, self.max_steps, self.max_slips, self.window = list(observers), max_steps, max_slips, window

    def tell(self, hook, *args):
        for listener in self.observers:
            getattr(listener, hook)(*args)

    def model(self, state):
        if state["failed"]:
            return {"stopped": "tool failed"}
        if state["model_calls"] >= self.max_steps:  # the ceiling, checked before the call it bounds
            return {"stopped": "step limit"}
        self.tell("on_step_start", state["model_calls"] + 1)
        response = self.llm.generate(pinned_window(self.system_prompt, state["messages"], self.window),
                                     self.registry.tools)
        self.tell("on_model_reply", response)
        reply = response.message
        return {"messages": [reply], "model_calls": state["model_calls"] + 1,
                "slips_left": state["slips_left"] - len(reply.tool_calls),
                "stopped": None if reply.tool_calls else "answered"}

    def run_errand(self, packet):
        slip = packet["slip"]
        self.tell("on_tool_call", slip)
        answer = errand(self.registry, slip)
        self.tell("on_tool_return", answer)
        return {"messages": [answer], "failed": [slip.name] if answer.content.startswith("Error: tool failed") else []}

    def give_up(self, state):
        answers = [ToolMessage(BUDGET_SPENT, s.id, name=s.name, is_error=True) for s in state["messages"][-1].tool_calls]
        for answer in answers:  # no on_tool_call: these slips never run, as in the package's Agent
            self.tell("on_tool_return", answer)
        return {"messages": answers, "stopped": "slip budget"}

    def graph(self):
        builder = StateGraph(PriceState)
        builder.add_node("model", self.model)
        builder.add_node("errand", self.run_errand)
        builder.add_node("give_up", self.give_up)
        builder.add_edge(START, "model")
        builder.add_conditional_edges("model", route, ["errand", "give_up", END])
        builder.add_edge("errand", "model")  # the join: the model runs once every branch is back
        builder.add_edge("give_up", END)
        # Supersteps: model, errands, model, errands, ... then a last model superstep that stops; 2 per model call + 1.
        return builder.compile(max_steps=2 * self.max_steps + 1)

    def run(self, state):
        question = UserMessage(state["question"])
        self.tell("on_run_start", (SystemMessage(self.system_prompt), question))
        final = self.graph().invoke({"messages": [question], "failed": [], "model_calls": 0,
                                     "slips_left": self.max_slips, "stopped": None})
        answer = final["messages"][-1].content if final["stopped"] == "answered" else None
        self.tell("on_finish", answer, final["stopped"])
        return {"answer": answer, "reason": final["stopped"]}


class ToolArgsErrorFailsAgent(PriceAgent):
    def run_errand(self, packet):  # any error ToolMessage counts as a broken tool, a fixable ToolCall too
        update = super().run_errand(packet)
        return {**update, "failed": [packet["slip"].name] if update["messages"][0].is_error else []}


class RunStartQuestionOnly(PriceAgent):
    def tell(self, hook, *args):  # on_run_start hears the question alone, without the system prompt
        super().tell(hook, *((args[0][1:],) if hook == "on_run_start" else args))


class StepsFromZero(PriceAgent):
    def tell(self, hook, *args):  # numbers the model calls 0, 1, 2, ...
        super().tell(hook, *((args[0] - 1,) if hook == "on_step_start" else args))


class NoCeilingAgent(PriceAgent):
    def model(self, state):  # never tests the ceiling (the graph still gets its room from max_steps)
        ceiling, self.max_steps = self.max_steps, 10**6
        try:
            return super().model(state)
        finally:
            self.max_steps = ceiling


class KeepAllAgent(PriceAgent):
    def model(self, state):
        self.window = 10_000  # reads the whole run, whatever window it was given
        return super().model(state)


class GiveUpSilently(PriceAgent):
    def give_up(self, state):  # stops, but leaves the batch's slips without answers
        return {"stopped": "slip budget"}


class GiveUpOtherWords(PriceAgent):
    def give_up(self, state):  # a bare "Error: no" tells the model nothing about why its slips were refused
        answers = [ToolMessage("Error: no", s.id, name=s.name, is_error=True) for s in state["messages"][-1].tool_calls]
        for answer in answers:
            self.tell("on_tool_return", answer)
        return {"messages": answers, "stopped": "slip budget"}


class GiveUpUnheard(PriceAgent):
    def give_up(self, state):  # answers the slips but tells no listener: a PriceLog gets no line for them
        slips = state["messages"][-1].tool_calls
        return {"messages": [ToolMessage(BUDGET_SPENT, s.id, name=s.name, is_error=True) for s in slips],
                "stopped": "slip budget"}


class GiveUpAnnouncesCalls(PriceAgent):
    def give_up(self, state):  # tells listeners the refused slips were called, though none ran
        for slip in state["messages"][-1].tool_calls:
            self.tell("on_tool_call", slip)
        return super().give_up(state)


class CeilingAsGraphSteps(PriceAgent):
    def graph(self):  # the model-call ceiling given to the graph, which counts supersteps
        compiled = super().graph()
        compiled.max_steps = self.max_steps
        return compiled


class FakeAnswerAgent(PriceAgent):
    def run(self, state):
        result = super().run(state)
        return result if result["answer"] else {**result, "answer": "Sorry, I could not finish."}


class SilentAgent(PriceAgent):
    def tell(self, hook, *args):
        pass


class RawErrandAgent(PriceAgent):
    def run_errand(self, packet):  # registry.run: a city with no prices takes the run down
        slip = packet["slip"]
        self.tell("on_tool_call", slip)
        answer = self.registry.run(slip)
        self.tell("on_tool_return", answer)
        return {"messages": [answer]}


class NoFinishAgent(PriceAgent):
    def tell(self, hook, *args):
        if hook != "on_finish":
            super().tell(hook, *args)


class StubRouteAgent(PriceAgent):
    def graph(self):  # finished itself, but wired to a router the learner has not written yet
        def route(state):
            raise NotImplementedError  # the notebook's 12.4 cell, not done yet

        builder = StateGraph(PriceState)
        builder.add_node("model", self.model)
        builder.add_node("errand", self.run_errand)
        builder.add_node("give_up", self.give_up)
        builder.add_edge(START, "model")
        builder.add_conditional_edges("model", route, ["errand", "give_up", END])
        builder.add_edge("errand", "model")
        builder.add_edge("give_up", END)
        return builder.compile(max_steps=2 * self.max_steps + 1)


class TooLittleRoom(PriceAgent):
    def graph(self):  # one model call's room short: the run that reaches the ceiling overruns the graph
        compiled = super().graph()
        compiled.max_steps = 2 * self.max_steps
        return compiled


class ChattyQuestionAgent(PriceAgent):
    def run(self, state):  # words of its own around the question: a replayed real run minds, a script does not
        return super().run({"question": f"Please help. {state['question']}"})


class ModelReadsOtherWords(PriceAgent):
    def model(self, state):  # the model reads the question in words of its own; the hooks hear the original
        first = UserMessage(f"Please help. {state['messages'][0].content}")
        return super().model({**state, "messages": [first, *state["messages"][1:]]})


class PackageAgent:  # only wraps the package's Agent: the check must refuse it
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_slips=8, window=6):
        from mingraph_lite import Agent
        self.agent = Agent(llm, registry, system_prompt, observers=observers, max_steps=max_steps)

    def run(self, state):
        return {**self.agent.run(state), "reason": "answered"}


# --- questions -------------------------------------------------------------------------------------

QUESTIONS = {
    "12.Q1": "6. The first reply asks for three prices, which work; the second asks for three conversions, and "
             "each errand runs to_usd twice (a broken tool gets one more try, and only one) before answering "
             "'Error: tool failed twice'. The model node then finds failed set and stops the run ('tool failed') "
             "before calling the model again, so no third round runs.",
    "12.Q2": "B. The first reply asks for five prices (8 - 5 = 3 slips left); the second asks for five "
             "conversions, which would leave -2, so the router sends that batch to give_up: two model calls, no "
             "conversion run, and the run ends 'slip budget'. The package's Agent has no slip budget and would "
             "make three calls.",
    "12.Q3": "B. The question is pinned, but with n=2 the third call reads only the newest exchange (the to_usd "
             "ToolCalls and their ToolMessages), not which city each price came from, so the manager says "
             "'I lost track of the prices.'",
    "12.Q4": "Each branch returns only the ToolMessage it adds, and `messages: Annotated[list, operator.add]` "
             "merges the branches' updates by concatenating them. Two branches writing a plain field in one "
             "superstep are an error, on this engine and on LangGraph.",
    "12.Q5": "The model would be read a ToolMessage whose ToolCall it cannot see: providers reject such a "
             "conversation, and a model that accepted it would read '450 JPY = 2.97 USD' without knowing which city it "
             "belongs to (the result names its amount, not its city).",
    "12.Q6": "Yes. Each later call is compared only on its newest messages (the last reply and its "
             "ToolMessages), and a window that keeps exchanges whole always keeps those, whatever n is. So the replay "
             "cannot notice what a window drops from the older part, not even the question after the first call; "
             "the check's scripted runs, which count what each call read, catch that.",
    "12.Q7": "The model node, before its next call: when the last reply's ToolCalls (names and arguments, not "
             "ids) are the same as the reply's before it, for the second time, return {'stopped': 'repeated'}; the "
             "router then ends the run, with answer None and reason 'repeated', without spending the rest of the "
             "ceiling. Not 'give_up': that node ends the run labelled 'slip budget', which names the wrong cause.",
}

SOLUTIONS = {"12.1": pinned_window, "12.2": errand, "12.3": PriceLog, "12.4": route, "12.5": PriceAgent,
             "12.Q1": 6, "12.Q2": "B", "12.Q3": "B"}

WRONG = {
    "12.1": [(window_forgets_the_question, "the question"),
             (window_cuts_exchanges, "without the assistant message that asked for it"),
             (window_question_twice, "twice"),
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
             (errand_by_the_package, "registry.answer"),
             (errand_by_package_helpers, "fix_answer")],
    "12.3": [(LogCountsSlips, "model replies"),
             (LogOverwrites, "append"),
             (LogNeverResets, "each run"),
             (LogWithoutErrors, "is_error"),
             (LogByRecorder, "EventRecorder"),
             (LogLastCall, "tool_call_id"),
             (LogHoldsLines, "crashes")],
    "12.4": [(route_one_branch, "Send"),
             (route_without_budget, "budget"),
             (route_whole_batch, "one ToolCall"),
             (route_budget_off_by_one, "exactly"),
             (route_whole_run, "earlier replies"),
             (route_first_message, "the first is the question"),
             (route_budget_first, "whenever stopped is set")],
    "12.5": [(NoCeilingAgent, "ceiling"),
             (KeepAllAgent, "window"),
             (GiveUpSilently, "unanswered"),
             (GiveUpOtherWords, "slip budget is spent"),
             (GiveUpUnheard, "on_tool_return"),
             (GiveUpAnnouncesCalls, "never run"),
             (CeilingAsGraphSteps, "counts supersteps, not model calls"),
             (TooLittleRoom, "counts supersteps, not model calls"),
             (ToolArgsErrorFailsAgent, "the model's to fix"),
             (RunStartQuestionOnly, "as a SystemMessage, then the question"),
             (StepsFromZero, "from 1"),
             (FakeAnswerAgent, "None"),
             (SilentAgent, "listeners"),
             (RawErrandAgent, "answer every ToolCall with your errand"),
             (NoFinishAgent, "on_finish is due"),
             (StubRouteAgent, "finish exercise 12.4 first"),
             (ChattyQuestionAgent, "word for word"),
             (ModelReadsOtherWords, "what the recorded agent sent"),
             (PackageAgent, "package's Agent")],
    "12.Q1": [(3, "one more try"), (12, "before calling the model"), ("6 times", "a number")],
    "12.Q2": [("A", "budget"), ("C", "ceiling")],
    "12.Q3": [("A", "newest exchange"), ("C", "newest exchange")],
}
