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


def only_if_unset(spec):
    os.environ.setdefault("MINGRAPH_LLM", spec)
    return make_llm()


def never_sets_it(spec):
    return make_llm()


def returns_nothing(spec):
    os.environ["MINGRAPH_LLM"] = spec


def returns_the_spec(spec):
    os.environ["MINGRAPH_LLM"] = spec
    return spec


def always_scripted(spec):
    os.environ["MINGRAPH_LLM"] = spec
    return make_llm("scripted")


SOLUTIONS = {
    "00.1": {"messages at the end": 10, "read on the last call": 9},
    "00.2": use_model,
}

WRONG = {
    "00.1": [({"messages at the end": 8, "read on the last call": 7}, "two messages before any reply"),
             ({"messages at the end": 6, "read on the last call": 5}, "one per errand"),
             ({"messages at the end": 9, "read on the last call": 8}, "one conversion per reply"),
             ({"messages at the end": 9, "read on the last call": 9}, "the answer, goes into the folder"),
             ({"messages at the end": 10, "read on the last call": 10}, "the answer is not in it"),
             ({"messages at the end": 10, "read on the last call": 7}, "minus what the last call itself wrote"),
             ({"messages at the end": "10", "read on the last call": 9}, "a whole number"),
             ({"messages at the end": 10, "read on the last call": 9.0}, "a whole number")],
    "00.2": [(builds_without_setting, "make_llm(spec)) but never sets"),
             (never_sets_it, "never sets the variable (it is still unset"),
             (sets_the_key_instead, "another variable"),
             (always_scripted, "not one fixed model"),
             (returns_nothing, "use_model returned None"),
             (returns_the_spec, "you returned the spec text"),
             (only_if_unset, "setdefault")],
}
