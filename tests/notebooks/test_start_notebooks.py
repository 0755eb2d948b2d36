"""Notebooks 00 to 02 after a fresh reader's review (issue 21): no output answers a prediction before it is made."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import jupytext

from lessons.exercises.nb00 import demo_folder

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _demo_output(answer_1: dict) -> str:
    """What notebook 00's demo cell prints, run as the notebook has it, after the given prediction."""
    cells = jupytext.read(NOTEBOOKS / "00_start_here.py").cells
    setup = next(c.source for c in cells if "four_round_manager" in c.source and "import" in c.source)
    demo = next(c.source for c in cells if "result_1 = verdict(" in c.source)
    namespace: dict = {"__name__": "__main__", "answer_1": answer_1}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(setup, namespace)
        exec(demo, namespace)
    return printed.getvalue()


def test_notebook_00s_demo_waits_for_a_right_prediction_and_then_shows_the_folder():
    counts = demo_folder()
    shown = f"messages at the end: {counts['messages at the end']}"
    assert shown not in _demo_output({"messages at the end": ..., "read on the last call": ...})
    assert shown not in _demo_output({"messages at the end": 3, "read on the last call": ...})
    wrong = _demo_output({"messages at the end": 3, "read on the last call": 5})  # copying the run's numbers is off
    assert "00.1 not yet" in wrong and shown not in wrong and "[step " not in wrong
    right = {key: counts[key] for key in ("messages at the end", "read on the last call")}
    printed = _demo_output(right)
    assert shown in printed and printed.index("00.1 passed") < printed.index(shown)  # the check ran first


def test_the_saved_notebook_00_shows_no_count_the_prediction_asks_for():
    counts = demo_folder()
    saved = json.loads((NOTEBOOKS / "00_start_here.ipynb").read_text(encoding="utf-8"))
    outputs = "".join("".join(o.get("text", "")) for c in saved["cells"] for o in c.get("outputs", []))
    assert f"messages at the end: {counts['messages at the end']}" not in outputs
    assert "call to_fahrenheit" not in outputs  # the 00.1 demo's steps stay hidden
    assert "[step 1]" in outputs and "How warm is it in Paris?" in outputs  # a smaller run shows what a run looks like
    assert "answered by:" in outputs  # the active model cell runs without waiting for 00.1
    assert f"model calls: {counts['model calls']}" not in outputs  # nor does it count the run for 00.1


def test_the_saved_notebook_01_shows_neither_prediction_before_it_is_made():
    saved = json.loads((NOTEBOOKS / "01_sticky_note_loop.ipynb").read_text(encoding="utf-8"))
    cells = {"".join(c["source"]): "".join("".join(o.get("text", "")) for o in c.get("outputs", []))
             for c in saved["cells"] if c["cell_type"] == "code"}
    reveals = [out for source, out in cells.items() if "gated=True" in source]
    assert len(reveals) == 2 and all("shown once your guess is right" in out for out in reveals)
    assert not any("'errands'" in out or "'StepLimitReached'" in out for out in reveals)


def test_notebook_01_keeps_the_fake_servers_plumbing_in_lessons():
    source = (NOTEBOOKS / "01_sticky_note_loop.py").read_text(encoding="utf-8")
    assert "show_wire(registry)" in source and "fake server" in source  # lessons.by_hand drives lessons.fake_servers
    assert "MockTransport" not in source and "import httpx" not in source


def _text_before(stem: str, marker: str) -> str:
    """The notebook's source up to the first cell that holds ``marker``."""
    cells = jupytext.read(NOTEBOOKS / f"{stem}.py").cells
    upto = next(i for i, c in enumerate(cells) if marker in c.source)
    return "\n".join(c.source for c in cells[:upto])


def test_notebook_02_does_not_answer_its_real_model_prediction_before_it_is_asked():
    before = _text_before("02_what_a_run_remembers", "my_guess_real =")
    for spoiler in ("answered without a tool", "No zero-shot run", "answers this question right"):
        assert spoiler not in before[before.index("## Real models on the same loop"):]


def test_notebook_01_asks_no_prediction_that_00_1_already_asked():
    cells = jupytext.read(NOTEBOOKS / "01_sticky_note_loop.py").cells
    guess = next(c.source for c in cells if c.source.startswith("my_guess ="))
    assert "four-round" not in guess and "model calls" in guess


def test_notebook_01_says_truly_whose_choice_an_empty_content_left_out_is():
    """01 says the official client would drop an empty content too (test_nb01_claims.py sends one through it)."""
    prose = " ".join(" ".join(c.source.split()) for c in jupytext.read(NOTEBOOKS / "01_sticky_note_loop.py").cells)
    assert "as Ollama's official client would too (it drops every empty field" in prose
    assert "its own choice" not in prose


def test_the_pinned_ollama_client_gives_a_tool_call_no_id_as_notebook_01_says():
    import pytest

    ollama_types = pytest.importorskip("ollama._types")
    assert set(ollama_types.Message.ToolCall.model_fields) == {"function"}
    prose = " ".join(" ".join(c.source.split()) for c in jupytext.read(NOTEBOOKS / "01_sticky_note_loop.py").cells)
    assert "In the `ollama` client this course pins (below 0.7) a tool call has **no ticket**" in prose


MODEL_SETTING = ("make_llm(", "check_environment(", "os.environ", "on_active_model(")


def test_only_cells_marked_nbval_ignore_output_read_the_model_setting():
    """00 says a real model changes only cells marked NBVAL_IGNORE_OUTPUT: in 00 the environment check and the
    "active model" cell, and one in 02; no unmarked cell of any notebook builds the active model or reads it."""
    marked = {}
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py")):
        cells = [c.source for c in jupytext.read(path).cells if c.cell_type == "code"]
        reading = [s for s in cells if any(word in s for word in MODEL_SETTING)]
        assert all("NBVAL_IGNORE_OUTPUT" in s for s in reading), path.name
        marked[path.stem[:2]] = reading
    assert len(marked["00"]) == 2 and "check_environment(" in marked["00"][0] and "make_llm()" in marked["00"][1]
    assert marked["02"]
    prose = " ".join(" ".join(c.source.split()) for c in jupytext.read(NOTEBOOKS / "00_start_here.py").cells)
    assert ('only cells marked `NBVAL_IGNORE_OUTPUT` (a comment that tells the notebook tests not to compare that '
            "cell's output) change their output: here the environment check and the "
            '"active model" cell; a few later notebooks (02, for one) have such a cell too') in prose


def test_notebook_01s_plain_loop_calls_the_looping_manager_until_its_script_runs_out():
    """01 says `plain_loop` would call `looping_manager()` until its script ran out (the cell no longer runs it)."""
    import re

    import pytest

    from mingraph_lite import ScriptExhausted, SystemMessage, UserMessage
    from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, looping_manager
    from mingraph_lite.course.weather import weather_registry

    source = (NOTEBOOKS / "01_sticky_note_loop.py").read_text(encoding="utf-8")
    assert "`plain_loop` would call it until its script ran out" in " ".join(source.replace("#", " ").split())
    namespace = {"SystemMessage": SystemMessage, "UserMessage": UserMessage, "SYSTEM_PROMPT": SYSTEM_PROMPT}
    exec(re.search(r"^def plain_loop.*?^        messages\.extend\(tool_messages\)\n", source, re.M | re.S).group(0),
         namespace)
    llm = looping_manager(rounds=30)
    with pytest.raises(ScriptExhausted):
        namespace["plain_loop"](llm, weather_registry(), QUESTION)
    assert len(llm.calls) == 30


def test_every_notebook_of_the_course_map_has_its_reference_answers():
    """00 says each notebook has a file of reference answers with its name (moved here from 00's map cell)."""
    from lessons.exercises.nb00 import COURSE

    solutions = sorted(p.stem for p in (NOTEBOOKS / "solutions").glob("[0-9][0-9]_*.py"))
    assert solutions == sorted(COURSE) == sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_00_2_takes_the_standard_librarys_patch_dict_as_an_answer_too():
    """A learner who knows unittest.mock.patch.dict has written a right using_model; the check must say so."""
    import importlib.util

    from lessons.exercises import verdict

    spec = importlib.util.spec_from_file_location("sol00", NOTEBOOKS / "solutions" / "00_start_here.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert verdict("00.2", module.using_model_by_patch).status == "passed"


def test_00_2_names_the_notebooks_whose_cells_run_the_active_model():
    """00.2 says notebooks 02, 05 and 10 each have a cell that runs the active model (read when the cell runs)."""
    import re

    prose = " ".join((NOTEBOOKS / "00_start_here.py").read_text(encoding="utf-8").replace("#", " ").split())
    assert "Notebooks 02, 05 and 10 each have a cell that runs the active model" in prose
    for stem in ("02_what_a_run_remembers", "05_reasoning_capture", "10_memory_and_cost"):
        cells = (NOTEBOOKS / f"{stem}.py").read_text(encoding="utf-8").split("# %%")
        code = [c for c in cells if not c.startswith(" [markdown]")]
        assert any(re.search(r"make_llm\(\)|os\.environ\.get\(\"MINGRAPH_LLM\"|compare_on_active_model\(\)", c)
                   for c in code), stem
    import inspect

    from lessons.conversation import compare_on_active_model

    assert 'os.environ.get("MINGRAPH_LLM"' in inspect.getsource(compare_on_active_model)  # read at call time
