"""Reference answers for notebook 04's exercises, and plausible wrong ones with the hint they should get."""

from __future__ import annotations

import json
from pathlib import Path

from mingraph_lite import Observer


# 04.1 ---------------------------------------------------------------- a listener that writes JSON Lines
class JsonLinesListener(Observer):
    """One JSON object per announcement, appended and closed line by line (a crash keeps what came before)."""

    def __init__(self, path):
        self.path = Path(path)

    def _write(self, **line):
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


# 04.3 ---------------------------------------------------------------- a tool tally
class ToolTally(Observer):
    def __init__(self):
        self.counts = {}

    def on_tool_call(self, call):
        self.counts[call.name] = self.counts.get(call.name, 0) + 1


class SharedTally(Observer):
    counts = {}  # one dict in the class body: every tally shares it

    def on_tool_call(self, call):
        self.counts[call.name] = self.counts.get(call.name, 0) + 1


class TotalTally(Observer):
    def __init__(self):
        self.counts = {}

    def on_tool_call(self, call):
        self.counts["tools"] = self.counts.get("tools", 0) + 1


class TwoHookTally(ToolTally):
    def on_tool_return(self, result):
        pass


SOLUTIONS = {"04.1": JsonLinesListener, "04.2": 20, "04.3": ToolTally}

WRONG = {
    "04.1": [(WritesAtTheEnd, "the file did not yet hold"), (WritesPythonReprs, "is not JSON"),
             (OverwritesTheFile, "open the file for appending"), (OnlyTools, "each announcement needs its own line")],
    "04.3": [(SharedTally, "share one dict"), (TotalTally, "count by the tool's name"),
             (TwoHookTally, "one announcement is enough")],
    "04.2": [(16, "count the announcements"), (18, "count the announcements")],
}
