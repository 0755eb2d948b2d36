"""The figures draw from recorded runs and experiment results, with labelled axes."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from mingraph_lite import plots
from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.scripted import word_count
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder


@pytest.fixture
def recorded(tmp_path):
    recorder, trace = EventRecorder(), tmp_path / "run.jsonl"
    llm = four_round_manager()
    llm.count_tokens = word_count  # counts by a stated rule, so the token plot has bars
    Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder, TraceRecorder(trace)]).run(
        {"question": QUESTION})
    return recorder, trace


def labelled(ax):
    return bool(ax.get_xlabel() or not ax.get_xaxis().get_visible()) and bool(ax.get_ylabel())


def test_plot_run_draws_the_cards_and_a_climbing_folder(recorded):
    recorder, trace = recorded
    fig = plots.plot_run(recorder)
    top, bottom = fig.axes
    rows = [t.get_text() for t in top.get_yticklabels()]  # one row per card held, in order
    assert rows[0].startswith("1 calling model") and rows[1].startswith("2 running tools")
    assert len(rows) == len(top.patches) == 8 and rows[-1].startswith("8 finished")
    sizes = list(bottom.lines[0].get_ydata())
    assert sizes == sorted(sizes) and sizes[-1] == 10
    assert bottom.get_ylabel() == "folder size\n(messages)" and "announcement" in bottom.get_xlabel()
    assert top.get_ylabel() and top.get_title()
    # the same picture from the trace file
    again = plots.plot_run(str(trace))
    assert list(again.axes[1].lines[0].get_ydata()) == sizes


def test_plot_tokens_draws_what_was_reported_and_says_what_was_not(recorded):
    recorder, _ = recorded
    fig = plots.plot_tokens(recorder)
    (ax,) = fig.axes
    inputs = [e["input_tokens"] for e in recorder.of("model_reply")]
    heights = [round(p.get_height()) for p in ax.patches]
    assert heights[: len(inputs)] == inputs and len(heights) == 2 * len(inputs)
    assert ax.get_xlabel() == "model call (step)" and "tokens" in ax.get_ylabel()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["input", "output"]
    assert any(t.get_text() == "not reported:\nreasoning" for t in ax.texts)


def test_plot_tokens_of_a_plain_scripted_run_draws_no_made_up_counts():
    recorder = EventRecorder()
    Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run(
        {"question": QUESTION})
    (ax,) = plots.plot_tokens(recorder).axes
    assert len(ax.patches) == 0
    assert any(t.get_text() == "not reported:\ninput,\noutput,\nreasoning" for t in ax.texts)


def test_plot_tokens_draws_a_memorys_own_model_calls_too():
    from mingraph_lite.llms.scripted import ScriptedLLM
    from mingraph_lite.memory import Summarise

    recorder = EventRecorder()
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"})], [("get_weather", {"city": "Tokyo"})], "done"],
                      count_tokens=word_count)
    memory = Summarise(SYSTEM_PROMPT, ScriptedLLM(["a summary"] * 5, count_tokens=word_count), keep_last=1, trigger=2)
    Agent(llm, weather_registry(), SYSTEM_PROMPT, memory=memory, observers=[recorder]).run({"question": QUESTION})
    (ax,) = plots.plot_tokens(recorder).axes
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels.count("memory") == len(memory.summary_responses) > 0
    assert len(ax.patches) == 2 * len(labels)  # input and output for every call, the memory's included


def test_bad_inputs_say_what_is_wrong():
    with pytest.raises(ValueError, match="hold no runs"):
        plots.plot_run([])
    with pytest.raises(ValueError, match="no model replies"):
        plots.plot_tokens([{"event": "run_start", "messages": []}])


def test_figures_are_not_left_open_in_pyplot(recorded):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    plots.plot_run(recorded[0])
    assert plt.get_fignums() == before
