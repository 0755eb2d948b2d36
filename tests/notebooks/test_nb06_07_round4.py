"""Round-4 reader fixes in notebooks 06 and 07: each claim the reader found false is now shown by a cell."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def _shown(name: str) -> str:
    return "\n".join("".join(out.get("text", "")) for cell in _cells(name) if cell["cell_type"] == "code"
                     for out in cell.get("outputs", []))


def _markdown(name: str) -> str:
    return "\n".join("".join(cell["source"]) for cell in _cells(name) if cell["cell_type"] == "markdown")


def test_06_shows_none_clears_a_plain_field_but_not_a_reducer_field():
    shown = _shown("06_graph_routing")
    assert "plain field, None clears it: None" in shown and "reducer field, None raises:" in shown
    assert "clearing one takes an explicit `None`" not in _markdown("06_graph_routing")


def test_06_no_longer_claims_thicker_arrows_mean_more_walks():
    assert "the thicker the arrow" not in _markdown("06_graph_routing")


def test_06_names_checkpoints_and_interrupts_as_what_an_engine_adds():
    text = _markdown("06_graph_routing")
    assert "Everything a graph engine adds on top is care" not in text
    assert "interrupt(value)" in text and "Command(resume=" in text and "checkpointer" in text
