"""The teaching pictures of notebooks 01-03: what they count, and that they draw offline."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from mingraph_lite import Agent, EventRecorder, StepLimitReached
from mingraph_lite.agents import _CallingModel
from mingraph_lite.course.scripts import (
    QUESTION,
    SYSTEM_PROMPT,
    four_round_manager,
    looping_manager,
    three_round_manager,
)
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.llms.scripted import word_count

pictures = pytest.importorskip("lessons.pictures")
pytest.importorskip("matplotlib")


def _recorded(make_manager):
    llm = make_manager()
    llm.count_tokens = word_count
    recorder = EventRecorder()
    Agent(llm, weather_registry(), SYSTEM_PROMPT, observers=[recorder]).run({"question": QUESTION})
    return recorder


def test_round_rows_counts_each_model_call_and_the_tool_calls_after_it():
    rows = pictures.round_rows(_recorded(three_round_manager))
    assert [row["step"] for row in rows] == [1, 2, 3]
    assert [row["tools"] for row in rows] == [["get_weather"] * 2, ["to_fahrenheit"] * 2, []]
    assert [row["answered"] for row in rows] == [False, False, True]
    assert all(row["input_tokens"] > 0 for row in rows)
    assert rows[0]["input_tokens"] < rows[1]["input_tokens"] < rows[2]["input_tokens"]  # the folder grows


def test_draw_rounds_puts_runs_side_by_side_and_names_their_counts():
    fig = pictures.draw_rounds({"four": _recorded(four_round_manager), "three": _recorded(three_round_manager)},
                               unit="words")
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[0].startswith("four\n4 model calls, 4 tool calls")
    assert titles[1].startswith("three\n3 model calls, 4 tool calls")


def test_draw_loop_and_draw_cards_draw_their_boxes():
    loop = pictures.draw_loop()
    words = {t.get_text() for t in loop.axes[0].texts}
    assert {"OBSERVE", "REASON", "ACT", "EVALUATE", "answer"} <= words and "StepLimitReached" not in words
    assert "while True" in " ".join(words)  # plain_loop's evaluate, as its code has it
    capped = {t.get_text() for t in pictures.draw_loop(ceiling=True).axes[0].texts}
    assert "StepLimitReached" in capped and "step < max_steps" in " ".join(capped)
    cards = pictures.draw_cards({"A": (0, 0), "B": (3, 0)}, [("A", "B", "go"), ("B", "A", "back")], new=["B"])
    assert {"A", "B", "go", "back"} <= {t.get_text() for t in cards.axes[0].texts}


def test_draw_cards_takes_the_arrows_the_agent_reads_from_its_cards():
    spots = {"CallingModel": (0, 0), "RunningTools": (5, 0), "Finished": (0, -2.6)}
    fig = pictures.draw_cards(spots, pictures.card_transitions(_CallingModel))
    arrows = [t for t in fig.axes[0].texts if getattr(t, "arrow_patch", None) is not None]
    assert len(arrows) == len(pictures.card_transitions(_CallingModel)) == 3
    assert {"CallingModel", "RunningTools", "Finished"} <= {t.get_text() for t in fig.axes[0].texts}


def test_notebook_03s_diagram_labels_every_arrow_its_cards_have_and_no_other():
    fig = pictures.draw_three_cards(_CallingModel)
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert set(pictures.THREE_LABELS.values()) <= texts and set(pictures.THREE_CARDS) <= texts
    with pytest.raises(ValueError, match="not the three labelled ones"):
        pictures.draw_three_cards(Asking)


# --- the card diagram, read from the cards' own annotations -------------------------------------------

def test_card_transitions_are_read_from_the_run_annotations_and_cover_every_run():
    edges = pictures.card_transitions(_CallingModel)
    assert sorted(edges) == [("CallingModel", "Finished"), ("CallingModel", "RunningTools"),
                             ("RunningTools", "CallingModel")]
    for manager, kwargs in ((four_round_manager, {}), (looping_manager, {"max_steps": 2})):
        agent = Agent(manager(), weather_registry(), SYSTEM_PROMPT, **kwargs)
        try:
            agent.run({"question": QUESTION})
        except StepLimitReached:
            pass
        names = [name for name, _ in agent.cards]
        assert set(zip(names, names[1:], strict=False)) <= set(edges)  # every hand-over a run made is drawn


@dataclass(frozen=True)
class Asking:
    def run(self, run) -> Waiting | Done:
        return Done()


@dataclass(frozen=True)
class Waiting:
    def run(self, run) -> Asking:
        return Asking()


@dataclass(frozen=True)
class Done:
    def run(self, run) -> None:
        return None


def test_card_transitions_follow_a_learners_own_classes():
    assert pictures.card_transitions(Asking) == [("Asking", "Waiting"), ("Asking", "Done"), ("Waiting", "Asking")]
    assert pictures.card_transitions(Done) == []


def test_the_brief_picture_counts_each_arrow_a_path_crosses():
    from mingraph_lite.graph import END, START

    path = ["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"]
    crossed = pictures.walked(path)
    assert crossed[(START, "collect")] == 1 and crossed[("publish", END)] == 1
    assert crossed[("write_draft", "check_draft")] == 1 and crossed[("revise_draft", "check_draft")] == 1
    assert sum(crossed.values()) == len(path) + 1
    assert {(a, b) for a, b, _ in pictures.BRIEF_ARROWS} >= set(crossed)  # every arrow walked is drawn


def test_the_brief_picture_draws_one_panel_per_path_and_refuses_an_unknown_node():
    figure = pictures.draw_brief_paths({"a": ["collect", "write_draft"], "b": ["collect"]})
    panels = [ax for ax in figure.axes if ax.get_title()]
    assert [ax.get_title().splitlines()[-1] for ax in panels] == ["2 nodes", "1 node"]
    with pytest.raises(ValueError, match="translate"):
        pictures.draw_brief_paths({"a": ["collect", "translate"]})
