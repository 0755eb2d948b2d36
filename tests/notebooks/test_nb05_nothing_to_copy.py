"""Notebook 05 shows no answer to copy: no cell defines the reference rules of 05.1 or 05.3, no prediction follows
its answer, and 05.2 comes before the notebook shows ``classify``, on a run whose events the notebook never holds
and whose manager the checker keeps to itself (issue 21)."""

from __future__ import annotations

from pathlib import Path

import jupytext

from lessons.exercises.nb05 import recorded
from mingraph_lite.course.classify import classify

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_reasoning_capture.py"


def _sources() -> list[str]:
    return [cell.source for cell in jupytext.read(NOTEBOOK).cells]


def test_no_cell_holds_a_working_answer_to_05_1_or_05_3():
    text = "\n".join(_sources())
    assert text.count("def made_up_counts") == 1 and "def interval" not in text
    assert text.count("def thinking_report") == 1
    for stub in ("def made_up_counts(runs):\n    raise NotImplementedError",
                 "def thinking_report(events):\n    raise NotImplementedError"):
        assert stub in text


def _first(sources: list[str], text: str) -> int:
    return next(i for i, s in enumerate(sources) if text in s)


def test_the_one_prediction_comes_before_its_answer_and_nothing_above_it_gives_it_away():
    sources = _sources()
    assert "my_prediction = ..." not in "".join(sources) and "my_outcome_guess" not in "".join(sources)
    case_and_line_cell = _first(sources, "my_case_and_line = ...")
    assert case_and_line_cell < _first(sources, "ReplayLLM.from_trace(TRACE_10)")
    before = "\n".join(sources[:case_and_line_cell])
    for giveaway in ("row['case']", "row.case", '"case", "line"', "Line 9", "closest", "unit mistake",
                     "not too small to make"):
        assert giveaway not in before
    # the saved notebook shows neither the answer nor the verdict until the guess is right (gated)
    import json

    saved = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "05_reasoning_capture.ipynb").read_text())
    outputs = "".join("".join(o.get("text", "")) for c in saved["cells"] for o in c.get("outputs", []))
    assert "shown once your guess is right" in outputs and "(3, 9)" not in outputs and "-->" not in outputs


def test_exercise_05_2_comes_before_the_notebook_shows_classify():
    sources = _sources()
    assert _first(sources, 'check("05.2"') < _first(sources, "import classify")
    assert not [s for s in sources[:_first(sources, 'check("05.2"')] if "classify(" in s]
    # the run is printed, never handed to the notebook: nothing to pass to classify once it is imported
    assert "reconvert_manager" not in "".join(sources) and "show_05_2_run()" in "".join(sources)


def test_05_2_cannot_be_passed_by_classifying_an_imported_run():
    """The reader passed 05.2 with classify(recorded(_reconvert_manager())): the manager lives in this test now,
    the notebook prints a stored run, and the check reads the source line, which classify does not give, first."""
    from lessons.exercises import nb05, verdict

    assert not [name for name in vars(nb05) if "reconvert" in name and name.endswith("manager")]
    truth = classify(recorded(_reconvert_manager()))
    result = verdict("05.2", (truth.case, truth.line, truth.line - 1))
    assert result.status == "not yet" and "answer slip" in result.message and str(truth.line) not in result.message


def test_the_exercises_come_in_page_order():
    sources = _sources()
    assert [_first(sources, f'check("05.{k}"') for k in (1, 2, 3)] == sorted(
        _first(sources, f'check("05.{k}"') for k in (1, 2, 3))


def test_notebook_04_does_not_give_away_the_gemma_prediction():
    text = "\n".join(cell.source for cell in jupytext.read(NOTEBOOK.with_name("04_observers.py")).cells)
    for giveaway in ("marked °F", "Celsius numbers", "°F (notebook 05", "case 3"):
        assert giveaway not in text


def _reconvert_manager():
    """05.2's scripted manager: converts Paris's 18, then the *result*, 64, again (Fahrenheit already), then Tokyo."""
    from mingraph_lite.llms.scripted import ScriptedLLM

    lookups = [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Tokyo"})]
    return ScriptedLLM([lookups, [("to_fahrenheit", {"celsius": 18})], [("to_fahrenheit", {"celsius": 64})],
                        [("to_fahrenheit", {"celsius": 24})], "Paris: 147°F, Tokyo: 75°F"],
                       name="scripted: converts its own 64 again")


def test_05_2_stored_run_is_the_scripted_managers_run():
    """The stored trace the notebook prints is exactly what the scripted manager records (nothing edited)."""
    from lessons.exercises import nb05

    assert nb05._reconvert_run() == recorded(_reconvert_manager())
    assert nb05._SCRIPTED_05_2.name.startswith("scripted-")


def test_the_reading_of_the_real_thinking_is_gated_and_nothing_above_it_gives_it_away():
    sources = _sources()
    guess = _first(sources, "my_reading = ...")
    before = "\n".join(s for s in sources[:guess] if not s.startswith("show_article_line"))
    assert "response format" not in before and "already Fahrenheit" not in before and '"18"' not in before
    assert "reveal_why(my_reading)" in sources[guess]  # the why and the reported figures print once it is right
    import json

    saved = json.loads((NOTEBOOK.with_suffix(".ipynb")).read_text())
    outputs = "".join("".join(o.get("text", "")) for c in saved["cells"] for o in c.get("outputs", []))
    assert "6 / 8" not in outputs and "Notebook 06 asks" not in outputs


def test_a_05_1_crash_hint_names_only_the_case_that_crashed():
    from lessons.exercises import verdict

    def crashes_on_unit(events):
        for e in events:
            if e["event"] == "tool_return" and e["name"] == "get_weather":
                float(e["content"])
        raise KeyError("stop")

    message = verdict("05.1", crashes_on_unit).message
    assert "raised KeyError" in message and "share =" not in message and message.count(":") <= 2
