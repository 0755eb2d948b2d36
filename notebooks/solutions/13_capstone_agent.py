"""Reference answers for notebook 13 (the capstone's agent, built in three milestones: 13.1 the loop, 13.2 its limits,
13.3 its hooks and the replayed real runs), and plausible wrong ones with the hint each must get."""

import operator
from typing import Annotated, TypedDict

from lessons.reference import reference
from mingraph_lite import SystemMessage, ToolMessage, UserMessage
from mingraph_lite.graph import END, START, StateGraph

# Notebook 12's pieces, its own versions (notebook 13 loads them the same way).
pinned_window, errand, route = reference("12.1"), reference("12.2"), reference("12.4")

# --- 13.1 to 13.3: the agent, as a graph -----------------------------------------------------------------


class PriceState(TypedDict):
    messages: Annotated[list, operator.add]
    failed: Annotated[list, operator.add]
    model_calls: int
    calls_left: int
    stopped: str | None


BUDGET_SPENT = "Error: not run, because the call budget is spent"


class PriceAgent:
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_calls=8, window=6):
        """The notebook's own answer to 13.1 to 13.3, one class (a reference answer, loaded unprinted)."""
        self.llm, self.registry, self.system_prompt = llm, registry, system_prompt
        self.observers, self.max_steps, self.max_calls, self.window = list(observers), max_steps, max_calls, window

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
                "calls_left": state["calls_left"] - len(reply.tool_calls),
                "stopped": None if reply.tool_calls else "answered"}

    def run_errand(self, packet):
        call = packet["call"]
        self.tell("on_tool_call", call)
        answer = errand(self.registry, call)
        self.tell("on_tool_return", answer)
        return {"messages": [answer], "failed": [call.name] if answer.content.startswith("Error: tool failed") else []}

    def give_up(self, state):
        answers = [ToolMessage(BUDGET_SPENT, s.id, name=s.name, is_error=True) for s in state["messages"][-1].tool_calls]
        for answer in answers:  # no on_tool_call: these calls never run, as in the package's Agent
            self.tell("on_tool_return", answer)
        return {"messages": answers, "stopped": "call budget"}

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
                                     "calls_left": self.max_calls, "stopped": None})
        answer = final["messages"][-1].content if final["stopped"] == "answered" else None
        self.tell("on_finish", answer, final["stopped"])
        return {"answer": answer, "reason": final["stopped"]}


class ToolArgsErrorFailsAgent(PriceAgent):
    def run_errand(self, packet):  # any error ToolMessage counts as a broken tool, a fixable ToolCall too
        update = super().run_errand(packet)
        return {**update, "failed": [packet["call"].name] if update["messages"][0].is_error else []}


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


class CeilingOneLate(PriceAgent):
    def model(self, state):  # tests model_calls > max_steps: lets one call past the ceiling
        ceiling, self.max_steps = self.max_steps, self.max_steps + 1
        try:
            return super().model(state)
        finally:
            self.max_steps = ceiling


class CeilingSkipsLastBatch(PriceAgent):
    def model(self, state):  # ends the run at the max_steps-th reply, before its ToolCalls run
        update = super().model(state)
        if update.get("model_calls") == self.max_steps and update["stopped"] is None:
            return {**update, "stopped": "step limit"}
        return update


class KeepAllAgent(PriceAgent):
    def model(self, state):
        self.window = 10_000  # reads the whole run, whatever window it was given
        return super().model(state)


class BudgetOneShort(PriceAgent):
    def run(self, state):  # starts calls_left one short, so a budget spent exactly counts as overspent
        self.max_calls -= 1
        try:
            return super().run(state)
        finally:
            self.max_calls += 1


class GiveUpSilently(PriceAgent):
    def give_up(self, state):  # stops, but leaves the batch's calls without answers
        return {"stopped": "call budget"}


class GiveUpOtherWords(PriceAgent):
    def give_up(self, state):  # a bare "Error: no" tells the model nothing about why its calls were refused
        answers = [ToolMessage("Error: no", s.id, name=s.name, is_error=True) for s in state["messages"][-1].tool_calls]
        for answer in answers:
            self.tell("on_tool_return", answer)
        return {"messages": answers, "stopped": "call budget"}


class GiveUpUnheard(PriceAgent):
    def give_up(self, state):  # answers the calls but tells no listener: a PriceLog gets no line for them
        calls = state["messages"][-1].tool_calls
        return {"messages": [ToolMessage(BUDGET_SPENT, s.id, name=s.name, is_error=True) for s in calls],
                "stopped": "call budget"}


class GiveUpAnnouncesCalls(PriceAgent):
    def give_up(self, state):  # tells listeners the refused calls were called, though none ran
        for call in state["messages"][-1].tool_calls:
            self.tell("on_tool_call", call)
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


class WholeListReturned(PriceAgent):
    def model(self, state):  # returns the run so far with the reply: the messages reducer adds it all again
        update = super().model(state)
        return {**update, "messages": state["messages"] + update["messages"]} if "messages" in update else update


class RawErrandAgent(PriceAgent):
    def run_errand(self, packet):  # registry.run: a city with no prices takes the run down
        call = packet["call"]
        self.tell("on_tool_call", call)
        answer = self.registry.run(call)
        self.tell("on_tool_return", answer)
        return {"messages": [answer]}


class NoFinishAgent(PriceAgent):
    def tell(self, hook, *args):
        if hook != "on_finish":
            super().tell(hook, *args)


class StubRouteAgent(PriceAgent):
    def graph(self):  # finished itself, but wired to a router the learner has not written yet
        def route(state):
            raise NotImplementedError  # notebook 12's 12.4 cell, not done yet

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


class BatchReversed(PriceAgent):
    def model(self, state):  # reads the newest batch's ToolMessages in reverse order: a replay's later call differs
        messages = list(state["messages"])
        cut = len(messages)
        while cut > 0 and isinstance(messages[cut - 1], ToolMessage):
            cut -= 1
        return super().model({**state, "messages": messages[:cut] + messages[cut:][::-1]})


class PackageAgent:  # only wraps the package's Agent: the check must refuse it
    def __init__(self, llm, registry, system_prompt, *, observers=(), max_steps=6, max_calls=8, window=6):
        from mingraph_lite import Agent
        self.agent = Agent(llm, registry, system_prompt, observers=observers, max_steps=max_steps)

    def run(self, state):
        return {**self.agent.run(state), "reason": "answered"}


# --- questions -------------------------------------------------------------------------------------

QUESTIONS = {
    "13.Q1": "6. The first reply asks for three prices, which work; the second asks for three conversions, and "
             "each errand runs to_usd twice (a broken tool gets one more try, and only one) before answering "
             "'Error: tool failed twice'. The model node then finds failed set and stops the run ('tool failed') "
             "before calling the model again, so no third round runs.",
    "13.Q2": "B. The first reply asks for five prices (8 - 5 = 3 calls left); the second asks for five "
             "conversions, which would leave -2, so the router sends that batch to give_up: two model calls, no "
             "conversion run, and the run ends 'call budget'. The package's Agent has no call budget and would "
             "make three calls.",
    "13.Q3": "9, that is 2*4+1: four model supersteps, each followed by a superstep of errands (the fourth reply's "
             "ToolCall still runs), then one last model node that finds the ceiling reached and stops the run "
             "without calling the model.",
    "13.Q4": "on_tool_return five times, one per refused ToolCall with its error ToolMessage, then on_finish. No "
             "on_tool_call: a refused ToolCall never runs, as in the package's Agent.",
    "13.Q5": "Because a stop that is tested after the call has already paid for that call: the ceiling bounds the "
             "calls, so it must be checked before the one it would forbid, and a broken tool is known before the "
             "model is asked again.",
    "13.Q6": "Every ToolCall in a conversation needs its ToolMessage, or the conversation is invalid for any later "
             "call (and a real API refuses it); the error text also tells the model and the log why the call never "
             "ran, where a silent stop would leave both guessing.",
}

SOLUTIONS = {"13.1": PriceAgent, "13.2": PriceAgent, "13.3": PriceAgent,
             "13.Q1": 6, "13.Q2": "B", "13.Q3": 9,
             "13.Q4": ["on_tool_return"] * 5 + ["on_finish"]}

WRONG = {
    "13.1": [(KeepAllAgent, "window"),
             (WholeListReturned, "only its new messages"),
             (RawErrandAgent, "answer every ToolCall with your errand"),
             (ToolArgsErrorFailsAgent, "the model's to fix"),
             (StubRouteAgent, "finish exercise 12.4 first"),
             (PackageAgent, "package's Agent")],
    "13.2": [(NoCeilingAgent, "ceiling"),
             (CeilingOneLate, "is tested before the call (model_calls >= max_steps)"),
             (CeilingAsGraphSteps, "counts supersteps, not model calls"),
             (TooLittleRoom, "counts supersteps, not model calls"),
             (CeilingSkipsLastBatch, "still run before the run stops"),
             (FakeAnswerAgent, "None"),
             (BudgetOneShort, "a budget spent exactly is not overspent"),
             (KeepAllAgent, "window")],
    "13.3": [(GiveUpSilently, "unanswered"),
             (GiveUpOtherWords, "call budget is spent"),
             (GiveUpUnheard, "on_tool_return"),
             (GiveUpAnnouncesCalls, "never run"),
             (RunStartQuestionOnly, "as a SystemMessage, then the question"),
             (StepsFromZero, "from 1"),
             (SilentAgent, "listeners"),
             (NoFinishAgent, "on_finish is due"),
             (ChattyQuestionAgent, "word for word"),
             (ModelReadsOtherWords, "what the recorded agent sent"),
             (BatchReversed, "in its ToolCalls' order"),
             (NoCeilingAgent, "ceiling")],
    "13.Q1": [(3, "one more try"), (12, "before calling the model"), ("6 times", "a number")],
    "13.Q2": [("A", "budget"), ("C", "ceiling")],
    "13.Q3": [(8, "one more model node"), (4, "not model calls"), ("9", "a number")],
    "13.Q4": [(["on_tool_call", "on_tool_return"] * 5 + ["on_finish"], "never runs"),
              (["on_tool_return", "on_finish"], "its own error ToolMessage"),
              (["on_tool_return"] * 5, "last"), ("on_finish", "a list")],
}
