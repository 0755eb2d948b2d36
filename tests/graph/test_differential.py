"""The differential run as a test: every seed's graph agrees on both engines, aspect by aspect."""

from __future__ import annotations

import pytest

pytest.importorskip("langgraph", reason="LangGraph not installed: pip install 'mingraph-lite[langgraph]'")

from differential import ASPECTS, QUIRKS, agreement, make_case, run_ours

SEEDS = range(300)


def test_every_seed_agrees_on_every_aspect():
    agreed, compared, differing, skipped = agreement(SEEDS)
    assert differing == []  # run `python -m tests.graph.differential --seeds 300` to see them
    assert all(compared[aspect] >= len(SEEDS) * 0.75 for aspect in ASPECTS)  # most seeds were run and compared
    assert skipped < len(SEEDS) * 0.2


def test_the_seeds_cover_what_the_engines_must_agree_on():
    cases = [make_case(seed) for seed in SEEDS]
    assert sum(bool(c.joins) for c in cases) > 30 and sum(bool(c.senders) for c in cases) > 30
    assert sum(bool(c.fail_at) for c in cases) > 30 and sum(bool(c.routers) for c in cases) > 100
    endings = {outcome.final[0].split(" at ")[0] for outcome in map(run_ours, cases) if outcome.final}
    assert {"finished", "step limit", "conflict", "Planted"} <= endings
    assert {c.quirk for c in cases} == {None, *QUIRKS}
    assert make_case(7) == make_case(7)  # seeded: a differing seed can be replayed
