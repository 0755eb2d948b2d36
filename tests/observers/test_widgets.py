"""The live views: what they show after scripted runs, live and from recorded events."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mingraph_lite.agents import Agent
from mingraph_lite.course.scripts import QUESTION, SYSTEM_PROMPT, four_round_manager, wrong_tokyo_manager
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.observers.recorder import EventRecorder
from mingraph_lite.observers.trace import TraceRecorder, run_ids
from mingraph_lite.observers.widgets import CardTimeline, FolderView, LiveRun
from mingraph_lite.tools import ToolRegistry

ROLES = ["system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "tool", "assistant"]
CARDS = ["calling model", "running tools"] * 3 + ["calling model", "finished (answered)"]


def run_four_rounds(*observers, llm=None):
    agent = Agent(llm or four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                  observers=observers, strict=True)  # strict: a bug in a view fails the test
    return agent, agent.run({"question": QUESTION})


def test_folder_view_rows_slips_and_answers_after_the_paris_tokyo_run():
    view = FolderView(widget=False)
    agent, result = run_four_rounds(view)
    assert [row.role for row in view.model.rows] == ROLES
    assert len(view.model.rows) == len(agent.memory.messages())
    first = view.model.rows[2]
    assert [(s["id"], s["name"]) for s in first.tool_calls] == [("call_1_1", "get_weather"),
                                                           ("call_1_2", "get_weather")]
    text = view.text()
    assert text.startswith("folder: 10 messages")
    # each answer slip is shown beside the slip it answers
    assert "slip #call_1_1 get_weather(city='Paris') -> 18" in text
    assert "slip #call_1_2 get_weather(city='Tokyo') -> 24" in text
    assert "#call_2_1 to_fahrenheit -> 64" in text
    assert text.endswith("finished (answered)")
    assert result["answer"] in text
    assert repr(view) == "FolderView(10 messages, finished (answered))"


def test_card_timeline_flips_while_the_folder_only_climbs():
    timeline = CardTimeline(widget=False)
    agent, _ = run_four_rounds(timeline)
    cards = timeline.model.cards
    labels = [c.label for c in cards]
    assert labels == CARDS
    assert [c.step for c in cards[:7]] == [1, 1, 2, 2, 3, 3, 4]
    sizes = [c.message_count for c in cards]
    assert sizes == [2, 3, 5, 6, 7, 8, 9, 10]
    assert timeline.model.sizes == sorted(timeline.model.sizes)  # the folder never shrinks
    # the agent's own record of the cards it held agrees, card for card
    names = {"CallingModel": "calling-model", "RunningTools": "running-tools", "Finished": "finished"}
    assert [(names[n], size) for n, size in agent.cards] == [(c.kind, c.message_count) for c in cards]
    lines = timeline.text().splitlines()
    assert lines[0] == "cards: 8, folder: 10 messages"
    assert "holding: running tools (step 1)" in lines[2] and lines[2].endswith("folder has 3 messages")
    assert repr(timeline) == "CardTimeline(8 cards, finished (answered))"


def test_live_run_shows_both_and_renders_stable_css_classes():
    view = LiveRun(widget=False)
    run_four_rounds(view)
    page = view.to_html()
    assert page.count('class="mg-row ') == 10
    assert page.count("mg-role-tool") == 4
    assert page.count('class="mg-card ') == 8
    assert page.count("mg-card-running-tools") == 3 and page.count("mg-card-calling-model") == 4
    assert 'mg-card mg-card-finished"' in page and "mg-current" not in page  # finished: no card in hand
    assert 'data-count="10"' in page
    assert "cards: 8" in view.text() and "folder: 10 messages" in view.text()
    assert repr(view) == "LiveRun(8 cards, 10 messages, finished (answered))"


def test_a_card_in_hand_is_marked_current_mid_run():
    view = LiveRun(widget=False)
    seen = []

    def peek(messages, tools):  # the model is being called: what does the view show right now?
        seen.append((view.model.status, view.to_html().count("mg-current"), len(view.model.rows)))
        return "done"

    Agent(ScriptedLLM([peek]), weather_registry(), SYSTEM_PROMPT, observers=[view], strict=True).run(
        {"question": QUESTION})
    assert seen == [("calling model (step 1)", 1, 2)]


def test_errors_are_marked_both_kinds():
    registry = ToolRegistry()

    @registry.add
    def get_weather(city: str) -> str:
        """Weather for a city."""
        raise RuntimeError("weather service down")

    view = LiveRun(widget=False)
    llm = ScriptedLLM([[("get_forecast", {"city": "Paris"})], [("get_weather", {"city": "Paris"})], "never"])
    with pytest.raises(RuntimeError, match="service down"):
        Agent(llm, registry, SYSTEM_PROMPT, observers=[view], strict=True).run({"question": QUESTION})
    tool_rows = [row for row in view.model.rows if row.role == "tool"]
    assert len(tool_rows) == 2 and all(row.is_error for row in tool_rows)
    assert "tool failed" in tool_rows[1].content
    assert view.model.status == ("finished (tool failed): "
                                 "get_weather raised RuntimeError: weather service down")
    assert view.to_html().count('mg-role-tool mg-error"') == 2
    assert "-> ERROR" in view.text()
    assert [c.label for c in view.model.cards][-1] == "finished (tool failed)"


def test_thinking_is_shown_collapsed():
    view = FolderView(widget=False)
    run_four_rounds(view, llm=wrong_tokyo_manager())
    assert '<details class="mg-thinking"><summary>thinking</summary>' in view.to_html()
    assert "thinking: Paris returned 18 and Tokyo returned 24." in view.text()


def test_a_finished_run_from_events_or_a_trace_looks_like_the_live_one(tmp_path):
    live, recorder = LiveRun(widget=False), EventRecorder()
    trace = tmp_path / "runs.jsonl"
    agent = Agent(four_round_manager(), weather_registry(), SYSTEM_PROMPT,
                  observers=[live, recorder, TraceRecorder(trace)], strict=True)
    agent.run({"question": QUESTION})
    assert LiveRun.from_events(recorder).text() == live.text()
    assert LiveRun.from_trace(trace).text() == live.text()
    # a second run in the same trace: the default is the last run, run=1 picks the first
    agent.llm = four_round_manager()
    agent.run({"question": QUESTION})
    assert len(run_ids(recorder.events)) == 2
    last = FolderView.from_trace(trace)
    assert len(last.model.rows) == 19  # the folder carried over: 10 + 1 question + 8 new messages
    assert len(FolderView.from_trace(trace, run=1).model.rows) == 10
    with pytest.raises(ValueError, match="2 runs"):
        FolderView.from_trace(trace, run=3)
    with pytest.raises(ValueError, match="hold no runs"):
        FolderView.from_events([])


def test_graph_runs_show_the_node_sequence():
    events = [{"event": "node_start", "node": n, "state": {}} for n in ("collect", "draft", "check")]
    events += [{"event": "step_start", "step": 1}, {"event": "node_start", "node": "publish", "state": {}},
               {"event": "finish", "answer": "brief", "reason": "published"}]
    timeline = CardTimeline.from_events(events, widget=False)
    assert [c.label for c in timeline.model.cards] == ["collect", "draft", "check", "publish",
                                                      "finished (published)"]
    assert timeline.to_html().count("mg-card-node") == 4


def test_no_print_from_a_listener(capsys):
    run_four_rounds(FolderView(widget=False), CardTimeline(widget=False), LiveRun(widget=False))
    assert capsys.readouterr() == ("", "")


def test_plain_text_fallback_without_ipywidgets(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets now fails
    view = LiveRun()  # auto: falls back instead of failing
    run_four_rounds(view)
    assert view.widget is None and view.renders == 0
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == repr(view)
    assert "mg-live" in bundle["text/html"]
    assert str(view) == view.text()
    with pytest.raises(ImportError, match=r"pip install 'mingraph-lite\[widgets\]'"):
        FolderView(widget=True)


def test_outside_a_kernel_auto_is_plain_text():
    assert FolderView().widget is None  # pytest has no Jupyter front end


def test_widget_mode_updates_the_html_and_keeps_a_stable_text_repr():
    pytest.importorskip("ipywidgets")
    view = LiveRun(widget=True)
    assert "mg-timeline" in view.widget.value and 'data-count="0"' in view.widget.value
    run_four_rounds(view)
    drawn = view.widget.value
    assert 'data-count="10"' in drawn and drawn.count('class="mg-row mg-role-tool') == 4
    assert "finished (answered)" in drawn and "mg-live" in drawn
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == "LiveRun(8 cards, 10 messages, finished (answered))"
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == view.widget.model_id
    single = FolderView(widget=True)
    run_four_rounds(single)
    assert "mg-folder" in single.widget.value and single.widget.value.count('class="mg-row ') == 10


class FakeClock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("seconds_per_event, expect_all", [(0.0, False), (0.5, True)])
def test_throttle_draws_floods_rarely_but_slow_runs_fully(seconds_per_event, expect_all):
    pytest.importorskip("ipywidgets")
    view = FolderView(widget=True, interval_ms=100)
    view._clock = FakeClock(seconds_per_event)
    drawn = []
    view.refresh = lambda: drawn.append(view.to_html())
    run_four_rounds(view)
    events = len(view.events)
    if expect_all:
        assert len(drawn) == events
    else:
        assert 2 <= len(drawn) <= 4 < events  # run start, the first wait, and the finish
    assert drawn[-1] == view.to_html()  # the finish is always drawn: the final picture is complete


def test_importing_the_views_and_plots_loads_neither_ipywidgets_nor_matplotlib():
    code = ("import sys, mingraph_lite, mingraph_lite.observers.widgets, mingraph_lite.plots; "
            "print([m for m in ('ipywidgets', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_throttle_shows_each_slow_model_call_even_when_tools_are_instant():
    pytest.importorskip("ipywidgets")
    clock = FakeClock(0.0)

    class SlowModel:  # each reply takes 0.4 s on the fake clock; the tools take no time at all
        def __init__(self):
            self.llm = four_round_manager()

        def generate(self, messages, tools):
            clock.now += 0.4
            return self.llm.generate(messages, tools)

    view = CardTimeline(widget=True, interval_ms=100)
    view._clock = clock
    drawn = []
    view.refresh = lambda: drawn.append((view.model.status, len(view.model.rows)))
    run_four_rounds(view, llm=SlowModel())
    # what the learner stares at during each model call: the right card and the folder so far
    for step, size in ((1, 2), (2, 5), (3, 7), (4, 9)):
        assert (f"calling model (step {step})", size) in drawn
    assert len(drawn) < len(view.events)  # the instant tool events after the first were not drawn
    assert drawn[-1] == ("finished (answered)", 10)


# ---------------------------------------------------------------- the static snapshot of a finished view

def test_snapshot_keeps_the_finished_picture_with_durations_from_the_injected_clock():
    pytest.importorskip("matplotlib")
    clock = FakeClock(0.0)

    class SlowModel:  # each reply takes 0.5 s and each tool 0 s, on the fake clock
        def __init__(self):
            self.llm = four_round_manager()

        def generate(self, messages, tools):
            clock.now += 0.5
            return self.llm.generate(messages, tools)

    timeline = CardTimeline(widget=False, clock=clock)
    run_four_rounds(timeline, llm=SlowModel())
    snap = timeline.snapshot()
    assert snap.png.startswith(b"\x89PNG")
    assert snap.html.startswith("<style>") and snap.html.endswith(timeline.to_html())
    assert 'class="mg-card mg-card-finished"' in snap.html  # the live markup, so the same CSS draws it
    lines = snap.text.split("timeline: card in hand, how long, folder size\n")[1].splitlines()
    assert len(lines) == 8
    model_calls = [line for line in lines if "calling model" in line]
    assert len(model_calls) == 4 and all("0.50 s" in line for line in model_calls)
    assert all("0.00 s" in line for line in lines if "running tools" in line or "finished" in line)
    assert lines[2].endswith("folder has 5 messages")
    assert [span.message_count for span in snap.spans] == [2, 3, 5, 6, 7, 8, 9, 10]
    assert [span.seconds for span in snap.spans] == [0.5, 0.0] * 3 + [0.5, 0.0]
    bundle = snap._repr_mimebundle_()
    assert bundle == {"text/plain": snap.text, "text/html": snap.html}


def test_snapshot_from_a_trace_uses_its_timestamps_and_from_bare_events_has_no_times(tmp_path):
    pytest.importorskip("matplotlib")
    from mingraph_lite.observers.snapshot import card_spans, event_times

    recorder, trace = EventRecorder(), tmp_path / "run.jsonl"
    run_four_rounds(recorder, TraceRecorder(trace))
    replayed = CardTimeline.from_trace(trace, widget=False)
    times = event_times(replayed.events, replayed.times)
    assert replayed.times == [] and len(times) == len(replayed.events) and times == sorted(times)
    assert all(span.seconds is not None and span.seconds >= 0 for span in card_spans(replayed.model, times))
    bare = CardTimeline.from_events(recorder, widget=False)
    assert event_times(bare.events, bare.times) is None
    assert "       ? " in bare.snapshot().text  # unknown durations are "?", never a made-up number
    assert [s.start for s in card_spans(bare.model, None)] == [c.at for c in bare.model.cards]


def test_the_snapshot_module_does_not_import_the_views():
    # widgets imports snapshot (when a snapshot is taken); the other way round would be a cycle.
    import mingraph_lite.observers.snapshot as snapshot

    source = open(snapshot.__file__, encoding="utf-8").read()
    assert "widgets" not in "".join(line for line in source.splitlines() if "import" in line)


def test_folder_snapshot_is_html_only_and_a_run_with_no_cards_has_no_timeline():
    view = FolderView(widget=False)
    run_four_rounds(view)
    snap = view.snapshot()
    assert snap.png is None and 'data-count="10"' in snap.html and snap.text == view.text()
    with pytest.raises(ValueError, match="no cards"):
        CardTimeline(widget=False).snapshot()


def test_snapshot_shows_as_html_then_png_in_two_outputs(monkeypatch):
    pytest.importorskip("matplotlib")
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append(sorted(obj)))
    timeline = CardTimeline(widget=False)
    run_four_rounds(timeline)
    timeline.snapshot()._ipython_display_()
    assert shown == [["text/html", "text/plain"], ["image/png", "text/plain"]]
