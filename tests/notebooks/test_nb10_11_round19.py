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
