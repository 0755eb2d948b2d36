"""Reference answers for notebook 05, plausible wrong ones (each with part of the hint it must get), and the
answers to its questions."""

from __future__ import annotations

import re

from mingraph_lite.course.classify import classify


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def celsius_of(event):
    """The number a to_fahrenheit slip asks to convert, as classify reads it: an int or a float, never text; None
    when the arguments gave none (arguments that stayed text, a missing or text celsius)."""
    value = event["arguments"].get("celsius") if isinstance(event["arguments"], dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def made_up_counts(runs):
    """Per variant, the to_fahrenheit slips whose number no get_weather answer on an earlier line of the run held."""
    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        returned = set()  # a new set for every run
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                returned.update(float(n) for n in NUMBER.findall(e["content"])[:1])
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in returned:
                counts[variant] += 1
    return counts


def by_reply(runs):
    """Wrong: counts only the answers of an earlier reply, so a conversion on a later line of the lookup's reply
    counts as made up, where classify (by line) lets it pass."""
    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        returned, answered = set(), set()
        for e in events:
            if e["event"] == "model_reply":
                returned |= answered
            elif e["event"] == "tool_return" and e["name"] == "get_weather":
                answered.update(float(n) for n in NUMBER.findall(e["content"]))
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in returned:
                counts[variant] += 1
    return counts


def shared_memory(runs):
    """Wrong: one set of looked-up numbers for all runs, so a run that looks nothing up borrows another's."""
    counts, returned = {}, set()
    for variant, events in runs:
        counts.setdefault(variant, 0)
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                returned.update(float(n) for n in NUMBER.findall(e["content"]))
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in returned:
                counts[variant] += 1
    return counts


def memory_per_variant(runs):
    """Wrong: keeps the lookups of every run of a variant, never reset between its runs."""
    counts, returned = {}, {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        seen = returned.setdefault(variant, set())
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                seen.update(float(n) for n in NUMBER.findall(e["content"]))
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in seen:
                counts[variant] += 1
    return counts


def skips_text_arguments(runs):
    """Wrong: leaves out slips whose arguments stayed text (02.3 counts them as made up)."""
    return made_up_counts([(v, [e for e in events if isinstance(e.get("arguments", {}), dict)]) for v, events in runs])


def text_value_parsed(runs):
    """Wrong: reads a celsius written as text ("18") with float(), where classify calls such a slip made up."""
    def number(e):
        value = e["arguments"].get("celsius") if isinstance(e["arguments"], dict) else None
        try:
            return float(value)
        except (TypeError, ValueError):
            return None
    return made_up_counts([(v, [dict(e, arguments={"celsius": number(e)}) if e["event"] == "tool_call"
                                and e["name"] == "to_fahrenheit" else e for e in events]) for v, events in runs])


def any_tool_number(runs):
    """Wrong: accepts a number any tool returned, so converting 64°F again looks fine."""
    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        returned = set()
        for e in events:
            if e["event"] == "tool_return":
                returned.update(float(n) for n in NUMBER.findall(e["content"].rpartition("=")[2]))
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in returned:
                counts[variant] += 1
    return counts


def counts_runs(runs):
    """Wrong: counts the runs that made a number up, not the made-up slips."""
    counts = {}
    for variant, events in runs:
        counts[variant] = counts.get(variant, 0) + (made_up_counts([(variant, events)])[variant] > 0)
    return counts


def drops_zeros(runs):
    """Wrong: leaves out the variants that made nothing up."""
    return {variant: n for variant, n in made_up_counts(runs).items() if n}


def whole_run_lookups(runs):
    """Wrong: collects a run's get_weather answers first, so a number converted before its lookup passes."""
    counts = {}
    for variant, events in runs:
        returned = {float(n) for e in events if e["event"] == "tool_return" and e["name"] == "get_weather"
                    for n in NUMBER.findall(e["content"])}
        counts[variant] = counts.get(variant, 0) + sum(
            e["event"] == "tool_call" and e["name"] == "to_fahrenheit" and celsius_of(e) not in returned
            for e in events)
    return counts


def comparing_text(runs):
    """Wrong: compares the number asked for with the answer slip's text ("18°C" is not 18)."""
    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        held = set()
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                held.add(e["content"])
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit":
                counts[variant] += str(int(celsius_of(e) or 0)) not in held
    return counts


def text_of_argument(runs):
    """Wrong: compares the argument's text with the numbers' text, so 18.0 ("18.0") misses "18"."""
    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        held = set()
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                held.update(NUMBER.findall(e["content"]))
            elif e["event"] == "tool_call" and e["name"] == "to_fahrenheit":
                arguments = e["arguments"] if isinstance(e["arguments"], dict) else {}
                counts[variant] += str(arguments.get("celsius")) not in held
    return counts


def via_rule_helpers(runs):
    """Wrong: reads each run with classify's own private rules instead of writing the rule."""
    from mingraph_lite.course import classify as rules

    counts = {}
    for variant, events in runs:
        counts.setdefault(variant, 0)
        state = rules._Reading(("Paris", "Tokyo"))
        for line, e in enumerate(events, 1):
            if e["event"] == "tool_return":
                rules._tool_return(state, e, line)
            elif e["event"] == "tool_call":
                counts[variant] += rules._tool_call(state, e, line) is not None and e["name"] == "to_fahrenheit"
    return counts


def via_classify(runs):
    """Wrong: asks the package's classifier, which stops at the first wrong line of each run."""
    counts = {}
    for variant, events in runs:
        verdict = classify(events)
        counts[variant] = counts.get(variant, 0) + ("no get_weather returned" in (verdict.why or ""))
    return counts


def thinking_report(events):
    """Per model reply (keyed by its line), the share of output tokens spent thinking (None when not reported),
    and the lines of the replies that carry thinking text but no thinking count."""
    shares, uncounted = {}, []
    for line, e in enumerate(events, 1):
        if e["event"] != "model_reply":
            continue
        thought, out = e["reasoning_tokens"], e["output_tokens"]
        shares[line] = thought / out if thought is not None and out else None
        if e["reasoning"] is not None and thought is None:
            uncounted.append(line)
    return shares, uncounted


def every_missing_count(events):
    """Wrong: lists every reply with no thinking count, those with no thinking text included."""
    shares, _ = thinking_report(events)
    return shares, [line for line, e in enumerate(events, 1)
                    if e["event"] == "model_reply" and e["reasoning_tokens"] is None]


def every_thinking_text(events):
    """Wrong: lists every reply with thinking text, those with a count included."""
    shares, _ = thinking_report(events)
    return shares, [line for line, e in enumerate(events, 1) if e["event"] == "model_reply" and e["reasoning"]]


def falsy_count(events):
    """Wrong: `not reasoning_tokens` takes a reported 0 for a missing count."""
    shares, _ = thinking_report(events)
    return shares, [line for line, e in enumerate(events, 1)
                    if e["event"] == "model_reply" and e["reasoning"] is not None and not e["reasoning_tokens"]]


def falsy_share(events):
    """Wrong: `if thought and out` gives None for a reported 0 thinking tokens."""
    shares, uncounted = thinking_report(events)
    return {line: share or None for line, share in shares.items()}, uncounted


def unreported_as_zero(events):
    """Wrong: a share of 0 where no count was reported."""
    shares, flagged = thinking_report(events)
    return {line: share or 0.0 for line, share in shares.items()}, flagged


def divides_by_zero(events):
    """Wrong: a share for every reported pair of counts, 0 output tokens included."""
    shares, flagged = thinking_report(events)
    for line, e in enumerate(events, 1):
        if e["event"] == "model_reply" and e["reasoning_tokens"] is not None and e["output_tokens"] is not None:
            shares[line] = e["reasoning_tokens"] / e["output_tokens"]
    return shares, flagged


def share_of_the_rest(events):
    """Wrong: thinking over the answer's tokens only, as if the output count left the thinking out."""
    shares, flagged = thinking_report(events)
    return {line: share / (1 - share) if share and share < 1 else share for line, share in shares.items()}, flagged


def zero_based_lines(events):
    """Wrong: lines counted from 0."""
    shares, flagged = thinking_report(events)
    return {line - 1: share for line, share in shares.items()}, [line - 1 for line in flagged]


def numbered_replies(events):
    """Wrong: numbers the model replies 1, 2, 3 instead of giving their lines in the trace."""
    shares, flagged = thinking_report(events)
    place = {line: i for i, line in enumerate(shares, 1)}
    return {place[line]: share for line, share in shares.items()}, [place[line] for line in flagged]


def as_percent(events):
    """Wrong: gives each share as a percent (25.0 for a quarter)."""
    shares, uncounted = thinking_report(events)
    return {line: None if share is None else share * 100 for line, share in shares.items()}, uncounted


def uncounted_as_set(events):
    """Wrong only in type: the uncounted lines as a set."""
    shares, uncounted = thinking_report(events)
    return shares, set(uncounted)


def uncounted_as_tuple(events):
    """Wrong only in type: the uncounted lines as a tuple."""
    shares, uncounted = thinking_report(events)
    return shares, tuple(uncounted)


def swapped(events):
    """Wrong: returns (uncounted, shares), the two halves the other way round."""
    shares, uncounted = thinking_report(events)
    return uncounted, shares


def via_classify_thinking(events):
    """Wrong: asks the package's classifier, which never reads the envelope."""
    verdict = classify(events)
    return thinking_report(events)[0], [verdict.line] if verdict.line else []


SOLUTIONS = {"05.1": thinking_report, "05.2": (1, 14, 11), "05.3": made_up_counts,
             "05.Q2": "same", "05.Q3": "right", "05.Q4": "refused"}
WRONG = {
    "05.3": [(shared_memory, "each run starts with nothing looked up"),
             (memory_per_variant, "do not carry into the next"),
             (skips_text_arguments, "as in 02.3"),
             (text_value_parsed, "is not a number"),
             (any_tool_number, "Fahrenheit already"), (counts_runs, "not the runs that made one up"),
             (drops_zeros, "0 included"), (whole_run_lookups, "EARLIER than the slip"),
             (comparing_text, "compare numbers, not text"), (text_of_argument, "str(18.0) is '18.0'"),
             (via_classify, "your answer runs classify"), (by_reply, "judged by line"),
             (via_rule_helpers, "the rule helpers it reads a run with")],
    "05.2": [((3, 21, 11), "it is not the first wrong line"), ((2, 15, 11), "every answer slip here is right"),
             ((1, 15, 11), "the answer slip"), ((1, 10, 11), "that is right"), ((1, 21, 11), "after the first wrong one"),
             ((1, 3, 11), "a request is never the wrong line itself"), ((1, 12, 11), "so is every line before it"),
             ((14, 1, 11), "did you swap them?"), ("case 1", "three whole numbers"), ((1, 14), "three whole numbers"),
             ((1, 14, 5), "returned '18', not 64"), ((1, 14, 10), "is a tool_call line"),
             ((1, 14, 13), "is a model_reply line"), ((1, 14, 15), "not 64"), ((1, 14, 40), "the trace has lines 1 to"),
             ((3, 21, 15), "line 15's answer slip returned"), ((3, 21, 15), "your case: the final reply is wrong, but")],
    "05.1": [(unreported_as_zero, "never 0"), (share_of_the_rest, "already includes the thinking"),
             (divides_by_zero, "no share of nothing"), (falsy_share, "a reported 0 is a count"),
             (zero_based_lines, "one too low"), (numbered_replies, "the model replies only"),
             (every_missing_count, "no thinking either"), (every_thinking_text, "has a count too"),
             (falsy_count, "0 is not None"), (via_classify_thinking, "your answer runs classify"),
             (as_percent, "a fraction, not a percent"), (uncounted_as_set, "return a list of lines"),
             (uncounted_as_tuple, "return a list of lines"), (swapped, "your tuple is swapped")],
    "05.Q2": [("different", "only their number"), ("maybe", "answer with one of")],
    "05.Q3": [("wrong slip", "do not count wasted calls"), ("wrong tool result", "every answer slip is right"),
              ("wrong final reasoning", "64 and 75"), ("never finished", "it finished")],
    "05.Q4": [("same verdict", "the first request already differs")],
}

QUESTIONS = {
    "05.Q1": "So that listeners see it while the folder does not pay for hundreds of tokens again every round; "
             "this course's adapters do not send it back (Ollama would accept it as `thinking`). A provider that requires thinking "
             "returned with the tool call it led to (Anthropic's extended thinking with tools) forces an adapter "
             "to keep it in the folder.",
    "05.Q2": "The same verdict (case 3 at the same line): the script does read its answer slips, but only the "
             "number on each (number(\"18°C\") is 18), and its logic ignores the unit; with a tool that answers "
             "other numbers (doubling_registry) it answers differently. A real model might read the unit; that is "
             "why the experiment needs real models.",
    "05.Q3": "right: both slips ask about 18, a number get_weather returned, so neither is a wrong line; the final "
             "reply gives the right Fahrenheit. The rules judge lines, they do not count wasted calls.",
    "05.Q4": "ReplayLLM refuses at the first request (ReplayMismatch): the run sends the system prompt and the "
             "question, the recording sent the worked example too. A replay is only valid for the same folder.",
    "05.Q5": "05.3 judges by line, as classify does: get_weather's answer 18 sits on an earlier line than the "
             "to_fahrenheit(18) slip, so the number was returned. The model still wrote 18 before it saw it, a lucky "
             "guess; one rule for both keeps one meaning of made up, and a guess that happens to match does no harm "
             "to this run's numbers.",
}
