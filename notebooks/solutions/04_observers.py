"""Reference answers for notebook 04's exercises and questions, and plausible wrong ones with the hint they should get."""

from __future__ import annotations

import json
from pathlib import Path

from mingraph_lite import EventRecorder, Observer, TraceRecorder


# 04.1 ---------------------------------------------------------------- a listener that writes JSON Lines
class JsonLinesListener(Observer):
    """One JSON object per announcement, appended and closed line by line (a crash keeps what came before)."""

    def __init__(self, path):
        self.path = Path(path)

    def _write(self, **line):
        """The notebook's own answer to 04.1 (a reference answer, loaded unprinted)."""
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")

    def on_run_start(self, messages):
        self._write(event="run_start", messages=len(messages))

    def on_step_start(self, step):
        self._write(event="step_start", step=step)

    def on_model_reply(self, response):
        self._write(event="model_reply", content=response.message.content,
                    tool_calls=[call.name for call in response.message.tool_calls])

    def on_tool_call(self, call):
        self._write(event="tool_call", name=call.name, arguments=call.arguments)

    def on_tool_return(self, result):
        self._write(event="tool_return", name=result.name, content=result.content)

    def on_tool_error(self, call, error):
        self._write(event="tool_error", name=call.name, error=str(error))

    def on_finish(self, answer, reason):
        self._write(event="finish", answer=answer, reason=reason)


class SpelledByEventDict(Observer):
    """Has the package's event_dict spell every line: right file, none of its choices the learner's."""

    def __init__(self, path):
        self.path = Path(path)

    def _write(self, hook, *args):
        from mingraph_lite.observers.base import event_dict
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(event_dict(hook, *args)) + "\n")

    def on_run_start(self, messages):
        self._write("on_run_start", messages)

    def on_step_start(self, step):
        self._write("on_step_start", step)

    def on_model_reply(self, response):
        self._write("on_model_reply", response)

    def on_tool_call(self, call):
        self._write("on_tool_call", call)

    def on_tool_return(self, result):
        self._write("on_tool_return", result)

    def on_tool_error(self, call, error):
        self._write("on_tool_error", call, error)

    def on_finish(self, answer, reason):
        self._write("on_finish", answer, reason)


class WritesAtTheEnd(JsonLinesListener):
    """Keeps the lines in memory and writes them when the run finishes: a crash loses them all."""

    def __init__(self, path):
        super().__init__(path)
        self.pending = []

    def _write(self, **line):
        self.pending.append(line)
        if line["event"] == "finish":
            with self.path.open("a", encoding="utf-8") as file:
                file.writelines(json.dumps(x) + "\n" for x in self.pending)


class ReplacesTheFileEachTime(JsonLinesListener):
    """Opens with "w" for every line: each write wipes the one before, and the file ends with one line."""

    def _write(self, **line):
        with self.path.open("w", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")


class WritesPythonReprs(JsonLinesListener):
    def _write(self, **line):
        with self.path.open("a", encoding="utf-8") as file:
            file.write(str(line) + "\n")  # single quotes: not JSON


class OverwritesTheFile(JsonLinesListener):
    """Opens the file once with "w": a second run's listener wipes the first run."""

    def __init__(self, path):
        super().__init__(path)
        self.file = self.path.open("w", encoding="utf-8")

    def _write(self, **line):
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()


class TraceRecorderInside(Observer):
    """Hands every announcement to the package's TraceRecorder: the file is right, and none of it is yours."""

    def __init__(self, path):
        self.inner = TraceRecorder(path)

    def on_run_start(self, messages):
        self.inner.on_run_start(messages)

    def on_step_start(self, step):
        self.inner.on_step_start(step)

    def on_model_reply(self, response):
        self.inner.on_model_reply(response)

    def on_tool_call(self, call):
        self.inner.on_tool_call(call)

    def on_tool_return(self, result):
        self.inner.on_tool_return(result)

    def on_finish(self, answer, reason):
        self.inner.on_finish(answer, reason)


class DelegatesThroughGetattribute(Observer):
    """Defines no hook: every on_... name is looked up on a TraceRecorder it keeps."""

    def __init__(self, path):
        self.inner = TraceRecorder(path)

    def __getattribute__(self, name):
        if name.startswith("on_"):
            return getattr(object.__getattribute__(self, "inner"), name)
        return object.__getattribute__(self, name)


class EventRecorderInside(Observer):
    """Lets the package's EventRecorder hear each announcement and writes its last event: none of the lines is
    written by the learner's own hooks, so the check refuses it like TraceRecorderInside."""

    def __init__(self, path):
        self.path, self.inner = Path(path), EventRecorder()

    def _pass_on(self, hook, *args):
        getattr(self.inner, hook)(*args)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(self.inner.events[-1], default=str) + "\n")

    def on_run_start(self, messages):
        self._pass_on("on_run_start", messages)

    def on_step_start(self, step):
        self._pass_on("on_step_start", step)

    def on_model_reply(self, response):
        self._pass_on("on_model_reply", response)

    def on_tool_call(self, call):
        self._pass_on("on_tool_call", call)

    def on_tool_return(self, result):
        self._pass_on("on_tool_return", result)

    def on_tool_error(self, call, error):
        self._pass_on("on_tool_error", call, error)

    def on_finish(self, answer, reason):
        self._pass_on("on_finish", answer, reason)


class SkipsToolError(JsonLinesListener):
    """Writes every announcement but a failure: a run whose tool fails is missing a line."""

    on_tool_error = Observer.on_tool_error


class ForgetsTheImport(JsonLinesListener):
    def _write(self, **line):
        with self.path.open("a", encoding="utf-8") as file:
            file.write(jsn.dumps(line) + "\n")  # noqa: F821 (a typo for json: the name is not defined)


class WritesTheObjects(JsonLinesListener):
    def on_tool_call(self, call):
        self._write(event="tool_call", call=call)  # a ToolCall is not plain data: json.dumps refuses it


class OnlyTools(Observer):
    """Writes only the tool lines: the file is not the run's whole record."""

    def __init__(self, path):
        self.path = Path(path)

    def _write(self, **line):
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")

    def on_tool_call(self, call):
        self._write(event="tool_call", name=call.name, arguments=call.arguments)

    def on_tool_return(self, result):
        self._write(event="tool_return", name=result.name, content=result.content)


# 04.3 ---------------------------------------------------------------- a ledger: asked for, and got a result
class ToolLedger(Observer):
    def __init__(self):
        self.asked = {}    # tool name -> slips the model wrote for it
        self.results = {}  # tool name -> slips answered with a result, not an error

    def on_model_reply(self, response):
        """The notebook's own answer to 04.3 (a reference answer, loaded unprinted)."""
        for call in response.message.tool_calls:  # what the model asked for, whatever happens to it next
            self.asked[call.name] = self.asked.get(call.name, 0) + 1

    def on_tool_return(self, result):
        if not result.is_error:
            self.results[result.name] = self.results.get(result.name, 0) + 1


class LedgerFromToolCalls(ToolLedger):
    """Counts the slips that were started: a slip after a failing tool never is."""

    def on_model_reply(self, response):
        pass

    def on_tool_call(self, call):
        self.asked[call.name] = self.asked.get(call.name, 0) + 1


class LedgerFromAnswers(ToolLedger):
    """Counts answered slips as asked for: two slips that share a ticket number get one answer between them."""

    def on_model_reply(self, response):
        pass

    def on_tool_return(self, result):
        self.asked[result.name] = self.asked.get(result.name, 0) + 1
        super().on_tool_return(result)


class LedgerReadsTheReplyAsAMessage(ToolLedger):
    def on_model_reply(self, response):
        for call in response.tool_calls:  # the slips are on response.message
            self.asked[call.name] = self.asked.get(call.name, 0) + 1


class LedgerCountsErrorsAsResults(ToolLedger):
    def on_tool_return(self, result):
        self.results[result.name] = self.results.get(result.name, 0) + 1


class LedgerReadsTheText(ToolLedger):
    """Tells a result from an error by its text: a result may start with "Error" too."""

    def on_tool_return(self, result):
        if not result.content.startswith("Error"):
            self.results[result.name] = self.results.get(result.name, 0) + 1


class LedgerSharedDicts(Observer):
    asked, results = {}, {}  # one pair of dicts in the class body: every ledger shares them

    on_model_reply, on_tool_return = ToolLedger.on_model_reply, ToolLedger.on_tool_return


class LedgerOnTheRecorder(EventRecorder):
    """Keeps the package's whole record and counts from it afterwards."""

    @property
    def asked(self):
        counts = {}
        for event in self.events:
            for call in event["message"]["tool_calls"] if event["event"] == "model_reply" else ():
                counts[call["name"]] = counts.get(call["name"], 0) + 1
        return counts

    @property
    def results(self):
        counts = {}
        for event in self.events:
            if event["event"] == "tool_return" and not event.get("is_error"):
                counts[event["name"]] = counts.get(event["name"], 0) + 1
        return counts


class LedgerWithARecorderInside(Observer):
    """Keeps an EventRecorder inside and counts from its record when the run finishes."""

    def __init__(self):
        self.asked, self.results, self.inner = {}, {}, EventRecorder()

    def on_model_reply(self, response):
        self.inner.on_model_reply(response)

    def on_tool_return(self, result):
        self.inner.on_tool_return(result)

    def on_finish(self, answer, reason):
        for event in self.inner.events:
            for call in event["message"]["tool_calls"] if event["event"] == "model_reply" else ():
                self.asked[call["name"]] = self.asked.get(call["name"], 0) + 1
            if event["event"] == "tool_return" and not event.get("is_error"):
                self.results[event["name"]] = self.results.get(event["name"], 0) + 1


# Questions ------------------------------------------------------------------------------------------
QUESTIONS = {
    "04.Q1": "tool_call, tool_return, tool_call, tool_error, tool_return, tool_return, finish: the first slip runs; "
             "the second is started and fails (on_tool_error, then on_tool_return with its error slip); the third is "
             "never started, so it gets only its 'not run' answer slip; then the run finishes.",
    "04.Q2": "Four: one per model reply. The agent catches the listener's exception at every announcement it "
             "fails on, logs a warning, and goes on.",
    "04.Q3": "One. With strict=True the listener's exception at the first on_tool_return stops the run; the agent "
             "answers the slips left as 'not run' and raises the listener's error.",
    "04.Q4": "The list of announcements lives in one place (the base class), a listener overrides only what it "
             "needs, and a misspelt hook can be found mechanically; a hear(event, detail) listener repeats the "
             "announcer's strings and fails silently on a typo.",
    "04.Q5": "on_step_start and on_model_reply: the time between them is the model's; a listener notes the clock "
             "at the first and subtracts at the second.",
}

SOLUTIONS = {"04.1": JsonLinesListener, "04.2": (20, JsonLinesListener), "04.3": ToolLedger,
             "04.Q1": ["tool_call", "tool_return", "tool_call", "tool_error", "tool_return", "tool_return", "finish"],
             "04.Q2": 4, "04.Q3": 1}

WRONG = {
    "04.1": [(WritesAtTheEnd, "the file did not yet hold"), (WritesPythonReprs, "is not JSON"),
             (OverwritesTheFile, "open the file for appending"),
             (ReplacesTheFileEachTime, "each write replaced the file"), (OnlyTools, "each announcement needs its own line"),
             (TraceRecorderInside, "package's TraceRecorder"), (EventRecorderInside, "none of its lines is yours"),
             (SkipsToolError, "no tool_error line"), (WritesTheObjects, "plain data"),
             (ForgetsTheImport, "never defined or imported"), (DelegatesThroughGetattribute, "__getattribute__"),
             (SpelledByEventDict, "event_dict write each line")],
    "04.2": [((16, JsonLinesListener), "one per announcement"),
             ((18, JsonLinesListener), "run_start at the start and finish at the end"),
             ((24, JsonLinesListener), "wrote fewer lines"), (("20", JsonLinesListener), "whole number"),
             ((20, OnlyTools), "pass 04.1 first"), ((20, TraceRecorder), "the check wants yours"),
             (20, "pass your prediction and your 04.1 class")],
    "04.3": [(LedgerFromToolCalls, "never started"), (LedgerFromAnswers, "share one ticket number"),
             (LedgerCountsErrorsAsResults, "is not a result"), (LedgerSharedDicts, "share one pair of dicts"),
             (LedgerOnTheRecorder, "write the hooks yourself"), (LedgerWithARecorderInside, "write the hooks yourself"), (LedgerReadsTheReplyAsAMessage, "gets an LLMResponse"),
             (LedgerReadsTheText, "read the answer slip's is_error, not its text")],
    "04.Q1": [(["tool_call", "tool_return", "tool_call", "tool_error", "tool_return", "finish"], "the third slip"),
              (["tool_call", "tool_return", "tool_call", "tool_error", "finish"], "on_tool_return too")],
    "04.Q2": [(1, "every announcement"), (0, "every announcement"), (18, "once per model call")],
    "04.Q3": [(2, "strict"), (0, "strict")],
}
