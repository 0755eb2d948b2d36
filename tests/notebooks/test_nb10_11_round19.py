"""Round 19's reader fixes for notebooks 10 and 11: the claims their new sentences make."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"


def test_11_says_truly_that_no_real_run_of_a_manager_with_a_helper_is_recorded():
    recorded = [path for path in (DATA / "runs").rglob("*") if path.is_file()
                and any(word in path.read_text(errors="ignore") for word in ("subagent", "ask_weather_helper"))]
    assert recorded == [], f"a recorded helper run exists ({recorded}): notebook 11 should replay it"
    said = (DATA.parent / "notebooks" / "11_helpers_and_plans.py").read_text()
    assert "no recorded real run of a\n#   manager with a helper" in said


def test_10_1_shows_the_failing_case_first_and_the_how_only_when_the_same_mistake_comes_back():
    from lessons.exercises import Hint
    from lessons.exercises.nb10 import _TOLD, safe_window
    from lessons.reference import reference

    wrong = dict((answer.__name__, answer) for answer, _ in reference("10_memory_and_cost").WRONG["10.1"])
    _TOLD.clear()
    said = []
    for _ in range(2):
        try:
            safe_window(wrong["BacksOneStep"])
        except Hint as hint:
            said.append(str(hint))
    first, second = said
    assert "you kept (slip[" in first and "asked for more than one tool" in first
    assert "WHILE" not in first and "WHILE it sits on an answer slip" in second
