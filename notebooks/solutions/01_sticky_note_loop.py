"""Reference answers for notebook 01's exercises, and plausible wrong ones with the hint each must get."""

from __future__ import annotations

import inspect
import re
import types

from mingraph_lite import Agent, ScriptedLLM, StepLimitReached, SystemMessage, UserMessage

JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _docs(fn):
    head, _, args = (inspect.getdoc(fn) or "").partition("\nArgs:")
    lines = (re.match(r"\s*(\w+)\s*:\s*(.+)", line) for line in args.splitlines())
    return " ".join(head.split()), {m.group(1): m.group(2).strip() for m in lines if m}


def schema_of(fn):
    """The notebook's own answer to 01.1 (a reference answer, loaded unprinted)."""
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


def schema_bool_as_integer(fn):
    """Looks the type up with isinstance-style thinking: a bool is an int in Python."""
    spec = schema_of(fn)
    for name, hint in inspect.get_annotations(fn, eval_str=True).items():
        if hint is bool:
            spec["function"]["parameters"]["properties"][name]["type"] = "integer"
    return spec


def schema_first_line_only(fn):
    spec = schema_of(fn)
    spec["function"]["description"] = (inspect.getdoc(fn) or "").splitlines()[0]
    return spec


def schema_empty_description(fn):  # an argument with no Args: line gets "" instead of no key
    spec = schema_of(fn)
    for prop in spec["function"]["parameters"]["properties"].values():
        prop.setdefault("description", "")
    return spec


def schema_all_required(fn):
    spec = schema_of(fn)
    spec["function"]["parameters"]["required"] = list(inspect.signature(fn).parameters)
    return spec


def schema_args_to_the_end(fn):
    """Reads every line after Args: as part of the arguments, so a Returns: block is glued onto the last one."""
    spec = schema_of(fn)
    _, _, args = (inspect.getdoc(fn) or "").partition("\nArgs:")
    properties, last = spec["function"]["parameters"]["properties"], None
    for line in args.splitlines():
        match = re.match(r"\s*(\w+)\s*:\s*(.+)", line)
        if match and match.group(1) in properties:
            last = match.group(1)
        elif last and line.strip():
            properties[last]["description"] += " " + line.strip()
    return spec


def schema_from_raw_annotations(fn):
    """Reads fn.__annotations__, which holds text such as 'float' when the module postpones annotations."""
    spec = schema_of(fn)
    for name, hint in fn.__annotations__.items():
        if name != "return":
            spec["function"]["parameters"]["properties"][name]["type"] = JSON_TYPES[hint]
    return spec


def schema_whole_docstring(fn):
    spec = schema_of(fn)
    spec["function"]["description"] = inspect.getdoc(fn)
    return spec


def errand_budget_loop(llm, registry, system_prompt, question, *, max_tool_calls=6):
    """The notebook's own answer to 01.4 (a reference answer, loaded unprinted)."""
    messages, errands, calls = [SystemMessage(system_prompt), UserMessage(question)], 0, 0
    while True:  # every reply that is not an answer brings a tool call, so the budget ends the loop
        response = llm.generate(messages, registry.tools)
        calls += 1
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for call in response.message.tool_calls:
            if errands == max_tool_calls:
                raise StepLimitReached(f"no answer within {max_tool_calls} tool calls", steps=calls)
            messages.append(registry.run(call))
            errands += 1


def budget_with_the_course_prompt(llm, registry, system_prompt, question, *, max_tool_calls=6):
    from mingraph_lite.course.scripts import SYSTEM_PROMPT

    return errand_budget_loop(llm, registry, SYSTEM_PROMPT, question, max_tool_calls=max_tool_calls)


def budget_counts_model_calls(llm, registry, system_prompt, question, *, max_tool_calls=6):
    messages = [SystemMessage(system_prompt), UserMessage(question)]
    for step in range(1, max_tool_calls + 1):
        response = llm.generate(messages, registry.tools)
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for call in response.message.tool_calls:
            messages.append(registry.run(call))
    raise StepLimitReached(f"no answer after {max_tool_calls} model calls", steps=max_tool_calls)


def budget_with_a_call_cap(llm, registry, system_prompt, question, *, max_tool_calls=6):
    """Counts errands, but also gives up after 5 model calls, "to be safe"."""
    messages, errands = [SystemMessage(system_prompt), UserMessage(question)], 0
    for calls in range(1, 6):
        response = llm.generate(messages, registry.tools)
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for call in response.message.tool_calls:
            if errands == max_tool_calls:
                raise StepLimitReached(f"no answer within {max_tool_calls} tool calls", steps=calls)
            messages.append(registry.run(call))
            errands += 1
    raise StepLimitReached("no answer within 5 model calls", steps=5)


def budget_one_errand_late(llm, registry, system_prompt, question, *, max_tool_calls=6):
    messages, errands, calls = [SystemMessage(system_prompt), UserMessage(question)], 0, 0
    while True:
        response = llm.generate(messages, registry.tools)
        calls += 1
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for call in response.message.tool_calls:
            messages.append(registry.run(call))
            errands += 1
            if errands > max_tool_calls:  # checked after the errand ran: one too many
                raise StepLimitReached("over budget", steps=calls)


def budget_whole_replies(llm, registry, system_prompt, question, *, max_tool_calls=6):
    messages, errands, calls = [SystemMessage(system_prompt), UserMessage(question)], 0, 0
    while True:
        response = llm.generate(messages, registry.tools)
        calls += 1
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        if errands + len(response.message.tool_calls) > max_tool_calls:
            raise StepLimitReached("over budget", steps=calls)
        for call in response.message.tool_calls:
            messages.append(registry.run(call))
            errands += 1


def budget_stops_when_spent(llm, registry, system_prompt, question, *, max_tool_calls=6):
    messages, errands, calls = [SystemMessage(system_prompt), UserMessage(question)], 0, 0
    while errands < max_tool_calls:  # gives up as soon as the budget is spent, before the model could answer
        response = llm.generate(messages, registry.tools)
        calls += 1
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        for call in response.message.tool_calls[: max_tool_calls - errands]:
            messages.append(registry.run(call))
            errands += 1
    raise StepLimitReached("budget spent", steps=calls)


def budget_raises_its_own_error(llm, registry, system_prompt, question, *, max_tool_calls=6):
    try:
        return errand_budget_loop(llm, registry, system_prompt, question, max_tool_calls=max_tool_calls)
    except StepLimitReached:
        raise RuntimeError("budget") from None


def budget_never_checked(llm, registry, system_prompt, question, *, max_tool_calls=6):
    """The plain loop with the budget argument ignored: only the script running out stops it."""
    messages = [SystemMessage(system_prompt), UserMessage(question)]
    while True:
        response = llm.generate(messages, registry.tools)
        messages.append(response.message)
        if not response.message.tool_calls:
            return response.message.content
        messages.extend(registry.run(call) for call in response.message.tool_calls)


def budget_with_a_fake_answer(llm, registry, system_prompt, question, *, max_tool_calls=6):
    try:
        return errand_budget_loop(llm, registry, system_prompt, question, max_tool_calls=max_tool_calls)
    except StepLimitReached:
        return "Stopped: the errand budget is spent."


def budget_by_the_agent(llm, registry, system_prompt, question, *, max_tool_calls=6):
    return Agent(llm, registry, system_prompt, max_steps=max_tool_calls).run({"question": question})["answer"]


def one_city_at_a_time():
    """The notebook's own answer to 01.3 (a reference answer, loaded unprinted)."""
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: one city at a time")


def both_cities_at_once():
    return ScriptedLLM([[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: both at once")


def one_conversion_per_reply():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: one conversion per reply")


def conversions_swapped():
    """Asks for Tokyo's conversion first, then reads the answer slips by position: Paris gets Tokyo's Fahrenheit."""
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 24}), ("to_fahrenheit", {"celsius": 18})],
                        "Paris: 75°F, Tokyo: 64°F"], name="scripted: swapped conversions")


def answer_without_cities():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
                        "64°F and 75°F"], name="scripted: no cities named")


def converts_made_up_numbers():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 20}), ("to_fahrenheit", {"celsius": 25})],
                        "Paris: 68°F, Tokyo: 77°F"], name="scripted: made-up numbers")


def converts_the_text():
    """Copies the temperatures as get_weather printed them: text, where to_fahrenheit takes a number."""
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": "18"}), ("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64°F, Tokyo: 75°F"], name="scripted: text for a number")


def answers_with_its_own_arithmetic():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
                        "Paris: 64.4°F, Tokyo: 75.2°F"], name="scripted: its own arithmetic")


def answers_in_celsius():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})],
                        "Paris: 18°C, Tokyo: 24°C"], name="scripted: Celsius answer")


SHARED_MANAGER = one_city_at_a_time()


def the_same_manager_every_time():
    return SHARED_MANAGER


def arguments_without_names():
    return ScriptedLLM([[("get_weather", "Paris")], [("get_weather", "Tokyo")],
                        [("to_fahrenheit", 18), ("to_fahrenheit", 24)], "Paris: 64°F, Tokyo: 75°F"])


def no_answer_at_the_end():
    return ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})],
                        [("to_fahrenheit", {"celsius": 18}), ("to_fahrenheit", {"celsius": 24})]],
                       name="scripted: no answer")


def to_ollama(messages):
    """The notebook's own answer to 01.2 (a reference answer, loaded unprinted)."""
    names, out = {}, []
    for m in messages:
        if m.role == "assistant":
            entry = {"role": "assistant"}
            if m.content:  # an empty text is left out, as the official client leaves it out
                entry["content"] = m.content
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


def to_ollama_naming_the_last_call(folder):  # a nameless answer slip gets the name of the last slip asked for
    out, last = [], None
    for m, entry in zip(folder, to_ollama(folder), strict=True):
        if m.role == "assistant" and m.tool_calls:
            last = m.tool_calls[-1].name
        if m.role == "tool" and not m.name:
            entry = {**entry, "tool_name": last}
        out.append(entry)
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




def to_ollama_always_content(folder):
    out = to_ollama(folder)
    for entry, m in zip(out, folder, strict=True):
        if m.role == "assistant":
            entry["content"] = m.content
    return out


def to_ollama_empty_tool_calls(folder):
    out = to_ollama(folder)
    for entry in out:
        if entry["role"] == "assistant":
            entry.setdefault("tool_calls", [])
    return out


def to_ollama_by_the_adapter(folder):
    from mingraph_lite.llms.ollama import to_ollama_messages

    return to_ollama_messages(folder)


def schema_by_describe(fn):
    from mingraph_lite.tools import _describe

    spec = schema_of(fn)
    spec["function"]["description"] = _describe(fn)[0]
    return spec


def schema_by_a_tool_object(fn):
    """Builds the argument model itself, then lets the package's Tool(...) write the JSON schema."""
    from pydantic import ConfigDict, Field, create_model

    from mingraph_lite.tools import Tool

    description, docs = _docs(fn)
    hints = inspect.get_annotations(fn, eval_str=True)
    fields = {name: (hints[name], Field(... if p.default is p.empty else p.default, description=docs.get(name)))
              for name, p in inspect.signature(fn).parameters.items()}
    model = create_model(f"{fn.__name__}_args", __config__=ConfigDict(extra="forbid"), **fields)
    return Tool(fn.__name__, fn, description, model).spec


def _copy_of(fn):
    """A new function running ``fn``'s code, made when this file loads: before any check's guard is on."""
    return types.FunctionType(fn.__code__, fn.__globals__, "mine", fn.__defaults__)


def _package_copies():
    from mingraph_lite.llms.ollama import to_ollama_messages
    from mingraph_lite.tools import Tool

    return _copy_of(Tool.from_function.__func__), _copy_of(to_ollama_messages)


FROM_FUNCTION_COPY, TO_OLLAMA_COPY = _package_copies()


def schema_by_a_copy(fn):
    from mingraph_lite.tools import Tool

    return FROM_FUNCTION_COPY(Tool, fn).spec


def to_ollama_by_a_copy(folder):
    return TO_OLLAMA_COPY(folder)


def schema_by_the_registry(fn):
    from mingraph_lite import ToolRegistry

    registry = ToolRegistry()
    registry.add(fn)
    return registry.tools[0]


SOLUTIONS = {"01.1": schema_of, "01.2": to_ollama, "01.3": one_city_at_a_time, "01.4": errand_budget_loop,
             "01.Q1": 7, "01.Q2": (3, False), "01.Q5": 6}

WRONG = {
    "01.1": [(schema_every_number_is_number, "int and float are not the same one"),
             (schema_bool_as_integer, 'a bool is "boolean"'),
             (schema_all_required, "no default value"),
             (schema_empty_description, "leave the description key out"),
             (schema_whole_docstring, "before its 'Args:' block"),
             (schema_args_to_the_end, "the next section, such as Returns:"),
             (schema_first_line_only, "on one line (inspect.getdoc helps)"),
             (schema_by_the_registry, "tests the package's code, not yours"),
             (schema_by_describe, "private _describe"),
             (schema_by_a_tool_object, "Tool(...)"),
             (schema_by_a_copy, "through a copy of the function object"),
             (schema_from_raw_annotations, "inspect.get_annotations(fn, eval_str=True)")],
    "01.2": [(to_ollama_like_openai, '"tool_name", not "tool_call_id"'),
             (to_ollama_keeping_ids, "carry no ticket number"),
             (to_ollama_trusting_names, "without its tool's name"),
             (to_ollama_naming_the_last_call, "not by position"),
             (to_ollama_always_content, "leaves \"content\" out when the text is empty"),
             (to_ollama_by_the_adapter, "calls the adapter's own to_ollama_messages"),
             (to_ollama_by_a_copy, "through a copy of the function object"),
             (to_ollama_empty_tool_calls, "leave the \"tool_calls\" key out")],
    "01.3": [(both_cities_at_once, "one city per reply"),
             (one_conversion_per_reply, "both conversions at once"),
             (converts_made_up_numbers, "temperatures get_weather returned"),
             (converts_the_text, "turn the temperature into a number"),
             (answers_with_its_own_arithmetic, "exactly as to_fahrenheit returned them"),
             (answers_in_celsius, "your answer gives the Celsius temperatures"),
             (answer_without_cities, "name each city in the answer"),
             (conversions_swapped, "pair each city with the conversion of its own Celsius"),
             (the_same_manager_every_time, "a new ScriptedLLM on every call"),
             (no_answer_at_the_end, "its last reply is the answer"),
             (arguments_without_names, '("tool name", {arguments}) pairs')],
    "01.4": [(budget_counts_model_calls, "counts tool calls, not model calls"),
             (budget_one_errand_late, "the errand that would pass it is not run"),
             (budget_whole_replies, "run the slips one at a time"),
             (budget_stops_when_spent, "must get its answer back"),
             (budget_with_a_fake_answer, "fake answer"),
             (budget_never_checked, "only stopped when ScriptExhausted came"),
             (budget_raises_its_own_error, "raised RuntimeError when the budget ran out"),
             (budget_by_the_agent, "the package's Agent"),
             (budget_with_the_course_prompt, "the system_prompt you are given"),
             (budget_with_a_call_cap, "count no model calls at all")],
    "01.Q1": [(4, "counts the model calls only"), (8, "nothing is left to run"), (5, "still passing slips")],
    "01.Q2": [((3, True), "never turned into an answer"), ((4, False), "counts model calls, exactly")],
    "01.Q5": [(5, "one more call"), (10, "count the call whose slip is not run")],
}

QUESTIONS = {
    "01.Q1": "7: CallModel, RunTools, CallModel, RunTools, CallModel, RunTools, CallModel. The list is fixed "
             "before the run, so any manager that wants one more round outruns it.",
    "01.Q2": "3 model calls, then StepLimitReached: the manager would answer on its fourth call, which the "
             "ceiling never allows; the caller gets no answer, only the exception.",
    "01.Q3": "To Ollama each answer slip names only its tool (tool_name), so the n-th answer of get_weather "
             "belongs to the n-th slip of get_weather by its place in the folder alone. Swapped, the model would "
             "read Tokyo's temperature as Paris's, with no id to notice it. OpenAI's answer slips carry the "
             "slip's id (tool_call_id), so their order does not decide which slip they answer.",
    "01.Q4": "That line (evaluate) is the only way a result reaches the next round. Without it a real model "
             "reads its own slips with no answers: it could make a result up (reason's failure) or ask for the "
             "same errands again and again (evaluate's: never stopping), and `while True` would not stop it. "
             "A provider may also refuse the call outright: it refuses a folder with a slip left unanswered "
             "(notebook 02 says so, for a tool that fails).",
    "01.Q5": "6: calls 1 to 5 each bring one slip, which runs; call 6 brings a sixth slip, which would be errand "
             "6, so the loop raises before running it. At most max_tool_calls + 1 model calls.",
}
