"""What round 23's reader found in notebook 10 stays fixed: 10.2's conversations all end with their final answer, as
the exercise says, so a correct answer passes whether it always drops the last message or drops it only when it is a
final answer; and the wrong answers stay refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from lessons.exercises import verdict
from lessons.exercises.nb10 import smallest_cases
from mingraph_lite import AssistantMessage, ToolMessage

SOLUTIONS = Path(__file__).resolve().parents[2] / "notebooks" / "solutions" / "10_memory_and_cost.py"


def _drops_a_final_answer_only(history):
    """The reader's answer: the last message is dropped only when it is a final answer."""
    h = list(history)
    if h and isinstance(h[-1], AssistantMessage) and not h[-1].tool_calls:
        h = h[:-1]
    j = next(k for k, m in enumerate(h) if isinstance(m, ToolMessage))
    while j + 1 < len(h) and isinstance(h[j + 1], ToolMessage):
        j += 1
    return len(h) - j


def _drops_the_last_always(history):
    h = list(history)[:-1]
    j = next(k for k, m in enumerate(h) if isinstance(m, ToolMessage))
    while j + 1 < len(h) and isinstance(h[j + 1], ToolMessage):
        j += 1
    return len(h) - j


def test_every_10_2_conversation_ends_with_its_final_answer():
    for name, history in smallest_cases():
        last = history[-1]
        assert isinstance(last, AssistantMessage) and not last.tool_calls, name


def test_both_readings_of_a_correct_10_2_answer_pass():
    for answer in (_drops_a_final_answer_only, _drops_the_last_always):
        result = verdict("10.2", answer)
        assert result.status == "passed", result.message


def test_10_2_wrong_answers_stay_refused():
    spec = importlib.util.spec_from_file_location("solutions10", SOLUTIONS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for answer, hint in module.WRONG["10.2"]:
        result = verdict("10.2", answer)
        assert result.status != "passed" and hint in result.message, (answer, result.message)


def test_the_last_read_band_follows_from_the_printed_first_reads():
    from lessons.conversation import QUESTIONS, run_conversation
    from mingraph_lite import KeepAll
    from mingraph_lite.course.scripts import SYSTEM_PROMPT

    first = [t for _, t, _ in run_conversation(KeepAll(SYSTEM_PROMPT), questions=QUESTIONS[:5]).agent_calls]
    reads = [t for _, t, _ in run_conversation(KeepAll(SYSTEM_PROMPT)).agent_calls]
    step = (first[-1] - first[0]) / (len(first) - 1)  # the hint's average step, carried on to the last call
    estimate = first[-1] + step * (len(reads) - len(first))
    assert 120 <= estimate < 240 and 120 <= reads[-1] < 240  # the same band: "120 to 239"


def test_the_ratio_follows_from_the_printed_lines_within_the_tolerance():
    from lessons.conversation import REAL_STRATEGIES, real_trace, replay_conversation

    reads = {name: [t for _, t, _ in replay_conversation(real_trace(name), name)[0].agent_calls]
             for name in REAL_STRATEGIES}
    keep, last = reads["keep-all"], reads["last-4"]
    growth = (keep[-1] - keep[0]) / (len(keep) - 1)
    estimate = (keep[0] + growth * (len(keep) - 1) / 2) / ((min(last) + max(last)) / 2)  # the hint's reasoning
    assert abs(estimate - sum(keep) / sum(last)) <= 0.3
    assert abs(1.0 - sum(keep) / sum(last)) > 0.3  # "no saving" is not accepted
