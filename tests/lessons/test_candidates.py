"""Notebook 06's helpers above 06.1: the worked candidate's numbers, and the picture's inside stretch."""

from __future__ import annotations

import pytest

from mingraph_lite.course.compare import wilson

candidates = pytest.importorskip("lessons.candidates")


def test_show_candidate_prints_the_two_numbers_and_the_side(capsys):
    candidates.show_candidate(6, 8, 0.40)
    assert capsys.readouterr().out.strip() == \
        "gap |6/8 − 0.4| = 0.350;  1.96 · √(0.4 · 0.6 / 8) = 0.339;  0.4 is outside"
    candidates.show_candidate(6, 8, 0.5)
    assert capsys.readouterr().out.rstrip().endswith("0.5 is inside")


def test_gap_and_reach_meet_at_the_score_intervals_ends():
    for k, n in ((6, 8), (0, 8), (3, 16)):
        for end in wilson(k, n):
            gap, reach = candidates.gap_and_reach(k, n, end)
            assert abs(gap - reach) < 1e-4  # wilson takes z = 1.95996..., the helper 1.96


def test_the_picture_shades_the_score_interval():
    pytest.importorskip("matplotlib")
    fig = candidates.draw_gap_reach(6, 8)
    ax = fig.axes[0]
    (shaded,) = ax.collections
    xs = [x for path in shaded.get_paths() for x, _ in path.vertices]
    low, high = wilson(6, 8)
    assert abs(min(xs) - low) < 0.002 and abs(max(xs) - high) < 0.002
    assert [line.get_label() for line in ax.get_lines()] == ["gap |6/8 − p0|", "1.96 · √(p0(1−p0)/8)"]
