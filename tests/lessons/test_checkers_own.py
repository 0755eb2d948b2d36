"""The checkers' own private helpers are importable (``from lessons.exercises.nb09 import _repeat_router``), and
round 12's reader passed 09.1, 10.1, 10.2 and 09.3 with them. Every check refuses an answer that is one, holds
one, or runs one it names, in the shared verdict; the public helpers the notebooks import stay usable."""

import textwrap

import pytest

from lessons.exercises import CHECKERS_OWN, verdict

HEADER = """
from mingraph_lite import SystemMessage, ToolMessage
from lessons.exercises.nb09 import _filed, _repeat_router, _stop_repeat
from lessons.exercises.nb10 import _reads_first_answer, _shortest
"""


def cell(source, name):
    """``source`` run as a learner's notebook cell, and the value it names."""
    namespace = {"__name__": "__main__"}
    exec(compile(HEADER + textwrap.dedent(source), "<ipython-input-3>", "exec"), namespace)
    return namespace[name]


def refused_as_the_checkers_own(exercise, answer, helper):
    result = verdict(exercise, answer)
    assert result.status == "not yet" and result.message == CHECKERS_OWN.format(helper), str(result)
    assert "the checker's own helper" in result.message and "the check wants your code" in result.message


def test_09_1_the_checkers_router_itself_or_wrapped():
    refused_as_the_checkers_own("09.1", cell("", "_repeat_router"), "_repeat_router")
    refused_as_the_checkers_own("09.1", cell("def route(state):\n    return _repeat_router(state)\n", "route"),
                                "_repeat_router")


def test_10_1_the_checkers_safe_start_inside_a_tiny_class():
    held = cell("""
        class SafeWindow:
            def __init__(self, system_prompt, n):
                self.system, self.n, self.history = SystemMessage(system_prompt), n, []
            def add(self, message):
                self.history.append(message)
            def messages(self):
                return [self.system, *self.history[len(self.history) - _shortest(self.history, self.n):]]
        """, "SafeWindow")
    refused_as_the_checkers_own("10.1", held, "_shortest")


def test_10_2_the_checkers_reading_of_lastn_in_a_loop():
    loop = cell("""
        def smallest_n(history):
            n = 1
            while not _reads_first_answer(history, n):
                n += 1
            return n
        """, "smallest_n")
    # 10.2's own run-time guard sees the LastN the helper builds and may refuse first: either refusal names why
    result = verdict("10.2", loop)
    assert result.status == "not yet", str(result)
    assert (result.message == CHECKERS_OWN.format("_reads_first_answer")
            or "the package's LastN.messages() ran" in result.message), str(result)


def test_09_3_a_wrapper_of_the_checkers_filed_and_stop():
    for source, helper in [("""
        def give_up(state):
            ran = _filed(state)
            again = [f"{c.name}({c.arguments})" for c in state["pending_calls"] if (c.name, c.arguments) in ran]
            return {"stop_reason": "repeated call", "pending_calls": [], "pending_reply": None,
                    "error": "asked again: " + ", ".join(again)}
        """, "_filed"), ("""
        def give_up(state):
            ran = _filed(state)
            again = [f"{c.name}({c.arguments})" for c in state["pending_calls"] if (c.name, c.arguments) in ran]
            return {**_stop_repeat(state), "error": "asked again: " + ", ".join(again)}
        """, None)]:
        result = verdict("09.3", cell(source, "give_up"))
        assert result.status == "not yet", str(result)  # with _stop_repeat, 09.3's own check refuses it first
        if helper:
            assert result.message == CHECKERS_OWN.format(helper), str(result)


@pytest.mark.parametrize("public", [False, True])
def test_the_learners_own_private_helper_and_a_public_helper_of_the_checkers_stay_allowed(public):
    # round 12's reader's own 10.2 answer, with a `_start` of their own; and the same calling a public helper that
    # notebook 05 imports from lessons.exercises
    answer = cell("""
        from lessons.exercises.nb05 import doubling_registry

        def _start(msgs, n):
            start = max(0, len(msgs) - n)
            while start > 0 and isinstance(msgs[start], ToolMessage):
                start -= 1
            return start

        def smallest_n(history):
            if PUBLIC:
                doubling_registry()
            h = history[:-1]
            first = next(i for i, m in enumerate(h) if isinstance(m, ToolMessage))
            n = 1
            while _start(h, n) > first:
                n += 1
            return n
        """.replace("PUBLIC", str(public)), "smallest_n")
    result = verdict("10.2", answer)
    assert result.passed, str(result)


def test_05_1_a_checker_helper_under_another_name_is_refused():
    """Round 14's reader bound the checker's `_report` to `g` and called `g`: the name it ran under is not the
    helper's, so the check looks at what the answer's globals are bound to."""
    wrapped = cell("""
        from lessons.exercises import nb05_thinking
        g = nb05_thinking._report

        def thinking_report(events):
            shares, flagged = g(events)
            return dict(shares), list(flagged)
        """, "thinking_report")
    refused_as_the_checkers_own("05.1", wrapped, "_report")
