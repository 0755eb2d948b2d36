"""Reference answers for notebook 00, and plausible wrong ones with the hint each must get."""

import os

from mingraph_lite.course.scripts import make_llm


def use_model(spec):
    os.environ["MINGRAPH_LLM"] = spec
    return make_llm()


def builds_without_setting(spec):
    return make_llm(spec)


def sets_the_key_instead(spec):
    os.environ["OPENAI_API_KEY"] = spec
    return make_llm()


def always_scripted(spec):
    os.environ["MINGRAPH_LLM"] = spec
    return make_llm("scripted")


SOLUTIONS = {
    "00.1": {"model calls": 4, "tool calls": 4},
    "00.2": use_model,
}

WRONG = {
    "00.1": [({"model calls": 3, "tool calls": 4}, "too few model calls"),
             ({"model calls": 5, "tool calls": 4}, "several slips"),
             ({"model calls": 4, "tool calls": 2}, "each slip the manager passes is one errand"),
             ({"model calls": "4", "tool calls": "4"}, "a whole number"),
             ({"model calls": 4, "tool calls": 4.0}, "a whole number")],
    "00.2": [(builds_without_setting, "os.environ"),
             (sets_the_key_instead, "another variable"),
             (always_scripted, "not one fixed model")],
}
