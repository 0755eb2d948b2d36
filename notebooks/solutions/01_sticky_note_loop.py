"""Reference answers for notebook 01's exercises, and plausible wrong ones with the hint each must get."""

from __future__ import annotations

import inspect
import re

from mingraph_lite import KeepAll, StepLimitReached, SystemMessage, UserMessage

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _docs(fn):
    head, _, args = (inspect.getdoc(fn) or "").partition("\nArgs:")
    lines = (re.match(r"\s*(\w+)\s*:\s*(.+)", line) for line in args.splitlines())
    return " ".join(head.split()), {m.group(1): m.group(2).strip() for m in lines if m}


def schema_of(fn):
    description, arg_docs = _docs(fn)
    hints = inspect.get_annotations(fn, eval_str=True)
    properties, required = {}, []
    for name, param in inspect.signature(fn).parameters.items():
        properties[name] = {"type": JSON_TYPES[hints[name]]}
        if name in arg_docs:
            properties[name]["description"] = arg_docs[name]
        if param.default is inspect.Parameter.empty:
            required.append(name)
    return {"type": "function", "function": {"name": fn.__name__, "description": description,
                                             "parameters": {"type": "object", "properties": properties,
                                                            "required": required}}}


def schema_every_number_is_number(fn):
    spec = schema_of(fn)
    for prop in spec["function"]["parameters"]["properties"].values():
        if prop["type"] == "integer":
            prop["type"] = "number"
    return spec


def schema_all_required(fn):
    spec = schema_of(fn)
    spec["function"]["parameters"]["required"] = list(inspect.signature(fn).parameters)
    return spec


def schema_whole_docstring(fn):
    spec = schema_of(fn)
    spec["function"]["description"] = inspect.getdoc(fn)
    return spec


def capped_loop(llm, registry, system_prompt, question, *, max_steps=10):
    folder = [SystemMessage(system_prompt), UserMessage(question)]
    for _ in range(max_steps):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            folder.append(registry.run(slip))
    raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


def loop_one_call_too_many(llm, registry, system_prompt, question, *, max_steps=10):
    folder = [SystemMessage(system_prompt), UserMessage(question)]
    for _ in range(max_steps + 1):
        response = llm.generate(folder, registry.tools)
        folder.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for slip in response.message.tool_calls:
            folder.append(registry.run(slip))
    raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


def loop_with_a_fake_answer(llm, registry, system_prompt, question, *, max_steps=10):
    try:
        return capped_loop(llm, registry, system_prompt, question, max_steps=max_steps)
    except StepLimitReached:
        return "Stopped: reached the step limit."


class NaiveAgent:
    """The notebook's trap, repeated here so the answers below can subclass it."""

    def __init__(self, llm, registry, system_prompt, memory=KeepAll("You answer questions.")):
        self.llm, self.registry, self.system_prompt, self.memory = llm, registry, system_prompt, memory

    def run(self, question, *, max_steps=10):
        self.memory.add(UserMessage(question))
        for _ in range(max_steps):
            response = self.llm.generate(self.memory.messages(), self.registry.tools)
            self.memory.add(response.message)
            if not response.message.tool_calls:
                return response.message.content
            for slip in response.message.tool_calls:
                self.memory.add(self.registry.run(slip))
        raise StepLimitReached(f"no answer after {max_steps} model calls", steps=max_steps)


class FixedAgent(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        if memory is None:
            memory = KeepAll(system_prompt)
        super().__init__(llm, registry, system_prompt, memory)


class SharedFolderAgent(NaiveAgent):
    """Moves the default, but still builds it once, in the def line."""

    def __init__(self, llm, registry, system_prompt, memory=KeepAll("You answer questions.")):
        super().__init__(llm, registry, system_prompt, memory)


class ForgetsTheCallersFolder(NaiveAgent):
    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt, KeepAll(system_prompt))


class TruthyTestAgent(NaiveAgent):
    """The fresh reader's first try: an empty folder is falsy, so the caller's new folder is thrown away."""

    def __init__(self, llm, registry, system_prompt, memory=None):
        super().__init__(llm, registry, system_prompt, memory if memory else KeepAll(system_prompt))


SOLUTIONS = {"01.1": schema_of, "01.4": capped_loop, "01.5": FixedAgent, "01.3": 4}

WRONG = {
    "01.1": [(schema_every_number_is_number, "int and float are not the same one"),
             (schema_all_required, "no default value"),
             (schema_whole_docstring, "before its 'Args:' block")],
    "01.4": [(loop_one_call_too_many, "counts model calls, exactly"),
             (loop_with_a_fake_answer, "fake answer")],
    "01.5": [(SharedFolderAgent, "still share one folder"),
             (ForgetsTheCallersFolder, "when the caller hands in a memory"),
             (TruthyTestAgent, "`memory is None`")],
    "01.3": [(6, "tool calls are not model calls"), (3, "count the manager's replies")],
}


def to_ollama(folder):
    names, out = {}, []
    for m in folder:
        if m.role == "assistant":
            entry = {"role": "assistant", "content": m.content}
            if m.tool_calls:
                entry["tool_calls"] = [{"function": {"name": c.name, "arguments": dict(c.arguments)}}
                                       for c in m.tool_calls]
                names.update((c.id, c.name) for c in m.tool_calls)
            out.append(entry)
        elif m.role == "tool":
            out.append({"role": "tool", "content": m.content, "tool_name": m.name or names[m.tool_call_id]})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def to_ollama_like_openai(folder):
    out = to_ollama(folder)
    for entry in out:
        if "tool_name" in entry:
            entry["tool_call_id"] = entry.pop("tool_name")
    return out


def to_ollama_keeping_ids(folder):
    out = to_ollama(folder)
    calls = [c for m in folder if m.role == "assistant" for c in m.tool_calls]
    slips = [call for entry in out for call in entry.get("tool_calls", [])]
    for call, original in zip(slips, calls, strict=True):
        call["id"] = original.id
    return out


def to_ollama_trusting_names(folder):
    return [{**entry, "tool_name": entry["tool_name"] if entry["tool_name"] else ""}
            if "tool_name" in entry else entry
            for entry in ({**e, "tool_name": m.name or ""} if m.role == "tool" else e
                          for e, m in zip(to_ollama(folder), folder, strict=True))]


SOLUTIONS["01.2"] = to_ollama
WRONG["01.2"] = [(to_ollama_like_openai, '"tool_name", not "tool_call_id"'),
                 (to_ollama_keeping_ids, "carry no ticket number"),
                 (to_ollama_trusting_names, "without its tool's name")]
