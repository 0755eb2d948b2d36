"""Reference answers for notebook 00, and plausible wrong ones with the hint each must get."""

import os
from contextlib import contextmanager

from mingraph_lite.course.scripts import make_llm


@contextmanager
def using_model(spec):
    """The notebook's own answer to 00.2 (a reference answer, loaded unprinted)."""
    before = os.environ.get("MINGRAPH_LLM")
    os.environ["MINGRAPH_LLM"] = spec
    try:
        yield make_llm()
    finally:
        if before is None:
            os.environ.pop("MINGRAPH_LLM", None)
        else:
            os.environ["MINGRAPH_LLM"] = before


@contextmanager
def using_model_by_patch(spec):
    """As good an answer, from the standard library: patch.dict restores the environment, even on an error."""
    from unittest.mock import patch

    with patch.dict(os.environ, {"MINGRAPH_LLM": spec}):
        yield make_llm()


def _switch(set_it, give, restore=True, on_error=True):
    """A using_model built from parts, each wrong one a plausible slip."""
    @contextmanager
    def switch(spec):
        before = os.environ.get("MINGRAPH_LLM")
        set_it(spec)
        try:
            yield give(spec)
        except BaseException:
            if on_error:
                _put_back(before)
            raise
        if restore:
            _put_back(before)
    return switch


def _put_back(before):
    if before is None:
        os.environ.pop("MINGRAPH_LLM", None)
    else:
        os.environ["MINGRAPH_LLM"] = before


def _set(spec):
    os.environ["MINGRAPH_LLM"] = spec


def sets_for_good(spec):  # the old exercise: a plain function, no block
    os.environ["MINGRAPH_LLM"] = spec
    return make_llm()


@contextmanager
def clears_instead_of_restoring(spec):
    os.environ["MINGRAPH_LLM"] = spec
    yield make_llm()
    os.environ.pop("MINGRAPH_LLM", None)


@contextmanager
def restores_to_empty_text(spec):
    before = os.environ.get("MINGRAPH_LLM", "")
    os.environ["MINGRAPH_LLM"] = spec
    try:
        yield make_llm()
    finally:
        os.environ["MINGRAPH_LLM"] = before


builds_without_setting = _switch(lambda spec: None, make_llm)
never_sets_it = _switch(lambda spec: None, lambda spec: make_llm())
sets_the_key_instead = _switch(lambda spec: os.environ.__setitem__("OPENAI_API_KEY", spec), lambda spec: make_llm())
only_if_unset = _switch(lambda spec: os.environ.setdefault("MINGRAPH_LLM", spec), lambda spec: make_llm())
returns_nothing = _switch(_set, lambda spec: None)
returns_the_spec = _switch(_set, lambda spec: spec)
always_scripted = _switch(_set, lambda spec: make_llm("scripted"))
never_restores = _switch(_set, lambda spec: make_llm(), restore=False, on_error=False)
skips_on_error = _switch(_set, lambda spec: make_llm(), on_error=False)


SOLUTIONS = {
    "00.1": {"messages at the end": 10, "read on the last call": 9},
    "00.2": using_model,
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
    "00.2": [(builds_without_setting, "never sets the variable, so any other"),
             (never_sets_it, "the variable is still unset"),
             (sets_the_key_instead, "another variable"),
             (only_if_unset, "setdefault"),
             (returns_nothing, "gave llm = None"),
             (returns_the_spec, "gave llm = 'ollama"),
             (always_scripted, "not one fixed model"),
             (sets_for_good, "must give a context manager"),
             (never_restores, "after the with block the variable is"),
             (clears_instead_of_restoring, "remove it when it was unset"),
             (restores_to_empty_text, "after the with block the variable is ''"),
             (skips_on_error, "in a finally")],
}
