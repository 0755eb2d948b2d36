"""Each notebook states the time scripts/pacing.py estimates for it, and none goes over 90 minutes (issue 21)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("pacing", ROOT / "scripts" / "pacing.py")
pacing = importlib.util.module_from_spec(spec)
sys.modules["pacing"] = pacing  # its dataclass looks its own module up while being defined
spec.loader.exec_module(pacing)
PACES = {p.notebook: p for p in pacing.course()}
STATED = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


@pytest.mark.parametrize("stem", sorted(PACES))
def test_the_header_states_the_estimate_and_it_is_at_most_90_minutes(stem):
    header = (ROOT / "notebooks" / f"{stem}.py").read_text(encoding="utf-8")[:3000]
    stated = STATED.search(header)
    assert stated, f"{stem}: no '**Time:** about N minutes' in its header"
    minutes = PACES[stem].minutes
    assert abs(int(stated[1]) - minutes) <= 5, f"{stem} states {stated[1]}, pacing says {minutes}"
    assert PACES[stem].minutes <= 90, f"{stem} takes about {PACES[stem].minutes} minutes: split it"


def test_notebook_00_states_the_whole_course():
    total = sum(p.minutes for p in PACES.values())
    text = (ROOT / "notebooks" / "00_start_here.py").read_text(encoding="utf-8")
    said = re.search(r"whole course\n?#? ?takes about ([\d.]+) hours", text)
    assert said, "00 does not say how long the whole course takes"
    assert abs(float(said[1]) - total / 60) <= 0.5, f"00 says {said[1]} hours; pacing says {total / 60:.1f}"


def test_the_rates_put_the_second_editions_measured_overruns_over_90_minutes():
    """The reviewer timed old 01 and old 05 over 90 minutes (05 at 2 to 2.5 hours); the rates must agree."""
    old01 = pacing.Pace("01", words=3299, code_lines=355, exercises=5, questions=0)
    old05 = pacing.Pace("05", words=3655, code_lines=502, exercises=4, questions=0)
    assert old01.minutes > 90 and 120 <= old05.minutes <= 150


def test_the_readers_estimates_are_whole_rounds_of_named_notebooks():
    """Each round names the notebooks as they were at the commit it read (numbers change when notebooks split)."""
    import csv

    with pacing.READERS.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(re.fullmatch(r"\d\d_[a-z0-9_]+", row["notebook"]) for row in rows)
    assert all(0 < int(row["minutes"]) < 300 and row["how"] and re.fullmatch(r"[0-9a-f]{7,40}", row["commit"])
               for row in rows)
    commit, newest = pacing.reader_estimates()
    assert len(newest) >= 10, f"round for {commit} covers only {sorted(newest)}"


#: the sizes (words, code lines, exercises, questions) of each notebook at commit 5cfa446, and the learner's time
#: the round-6 fresh reader of that notebook estimated (data/pacing/reader_estimates.csv)
ROUND_6 = {"00_start_here": (1300, 51, 2, 0, 28), "01_sticky_note_loop": (2986, 194, 4, 8, 112),
           "02_what_a_run_remembers": (3037, 243, 3, 7, 105), "03_state_cards": (2616, 299, 4, 5, 115),
           "04_observers": (2884, 295, 3, 7, 100), "05_reasoning_capture": (3181, 199, 4, 7, 120),
           "06_graph_routing": (2826, 214, 3, 6, 95), "07_parallel_and_agent_graph": (2770, 237, 5, 7, 110),
           "08_memory_and_cost": (2678, 246, 3, 6, 100), "09_helpers_and_plans": (2212, 195, 3, 7, 90),
           "10_capstone": (3224, 210, 5, 7, 125)}


#: the same for round 7, at commit 464f90a (after the cuts and the two splits)
ROUND_7 = {"00_start_here": (1109, 61, 2, 0, 30), "01_sticky_note_loop": (2002, 165, 4, 5, 105),
           "02_what_a_run_remembers": (2374, 208, 3, 5, 95), "03_state_cards": (2175, 218, 3, 5, 95),
           "04_observers": (2140, 216, 3, 5, 90), "05_reasoning_capture": (2476, 136, 4, 5, 110),
           "06_graph_routing": (2076, 200, 3, 6, 100), "07_parallel_branches": (1762, 180, 4, 5, 95),
           "08_agent_graph": (1110, 72, 3, 5, 60), "09_memory_and_cost": (2270, 205, 3, 5, 105),
           "10_helpers_and_plans": (1818, 194, 3, 7, 110), "11_capstone_pieces": (1649, 139, 4, 5, 95),
           "12_capstone": (1573, 92, 3, 5, 92)}


#: the same for round 8, at commit 299f677
ROUND_8 = {"00_start_here": (1136, 62, 2, 0, 35), "01_sticky_note_loop": (1871, 133, 4, 5, 100),
           "02_what_a_run_remembers": (2345, 178, 3, 5, 102), "03_state_cards": (2028, 195, 3, 5, 100),
           "04_observers": (2031, 195, 3, 5, 88), "05_reasoning_capture": (2270, 122, 4, 5, 118),
           "06_graph_routing": (2024, 194, 3, 5, 95), "07_parallel_branches": (1545, 151, 4, 5, 102),
           "08_agent_graph": (1172, 75, 3, 5, 70), "09_memory_and_cost": (2048, 194, 3, 5, 100),
           "10_helpers_and_plans": (1870, 192, 3, 5, 100), "11_capstone_pieces": (1684, 130, 4, 5, 100),
           "12_capstone": (1606, 96, 3, 5, 85)}
#: the same for round 9, at commit 563e947 (the rates were not refitted on it)
ROUND_9 = {"00_start_here": (1188, 62, 2, 0, 40), "01_sticky_note_loop": (1725, 103, 4, 5, 100),
           "02_what_a_run_remembers": (2058, 169, 3, 5, 90), "03_state_cards": (1964, 174, 3, 5, 90),
           "04_observers": (1704, 188, 3, 5, 90), "05_reasoning_capture": (1932, 100, 3, 5, 95),
           "06_how_sure": (948, 41, 3, 5, 55), "07_graph_routing": (1967, 174, 3, 5, 90),
           "08_parallel_branches": (1392, 121, 4, 5, 95), "09_agent_graph": (1226, 72, 3, 5, 70),
           "10_memory_and_cost": (2114, 152, 3, 5, 100), "11_helpers_and_plans": (1781, 184, 3, 5, 90),
           "12_capstone_pieces": (1632, 108, 4, 5, 90), "13_capstone": (1651, 100, 3, 5, 90)}
#: the same for round 12, at commit 11de193 (the rates were not refitted on it)
ROUND_12 = {"00_start_here": (1193, 62, 2, 0, 40), "01_sticky_note_loop": (1725, 103, 4, 5, 105),
            "02_what_a_run_remembers": (2061, 169, 3, 5, 85), "03_state_cards": (1947, 171, 3, 5, 85),
            "04_observers": (1704, 188, 3, 5, 90), "05_reasoning_capture": (2488, 107, 3, 5, 105),
            "06_how_sure": (1243, 53, 3, 6, 75), "07_graph_routing": (1966, 174, 3, 5, 95),
            "08_parallel_branches": (1391, 121, 4, 5, 100), "09_agent_graph": (1253, 71, 3, 5, 70),
            "10_memory_and_cost": (1876, 158, 3, 5, 105), "11_helpers_and_plans": (1781, 184, 3, 5, 85),
            "12_capstone_pieces": (1634, 108, 4, 5, 85), "13_capstone": (1718, 97, 3, 5, 90)}
#: the same for round 13, at commit 21d0faa (after round 12's fixes; the rates were not refitted on it)
ROUND_13 = {"00_start_here": (1213, 62, 2, 0, 40), "01_sticky_note_loop": (1258, 72, 4, 5, 95),
            "02_what_a_run_remembers": (2093, 167, 3, 5, 90), "03_state_cards": (2020, 171, 3, 5, 98),
            "04_observers": (1651, 191, 3, 5, 85), "05_reasoning_capture": (2226, 102, 3, 5, 95),
            "06_how_sure": (1520, 65, 4, 6, 80), "07_graph_routing": (1966, 174, 3, 5, 90),
            "08_parallel_branches": (1392, 121, 4, 5, 93), "09_agent_graph": (1411, 82, 4, 5, 80),
            "10_memory_and_cost": (1850, 110, 3, 5, 95), "11_helpers_and_plans": (1763, 185, 3, 5, 95),
            "12_capstone_pieces": (1631, 108, 4, 5, 90), "13_capstone": (1745, 101, 3, 5, 80)}
#: the same for round 14, at commit bd18851 (after the refit to 12 and 3 and the cuts it asked for)
ROUND_14 = {"00_start_here": (1226, 62, 2, 0, 35), "01_sticky_note_loop": (1262, 72, 4, 5, 100),
            "02_what_a_run_remembers": (1861, 162, 3, 5, 90), "03_state_cards": (1880, 161, 3, 5, 90),
            "04_observers": (1490, 182, 3, 5, 90), "05_reasoning_capture": (2043, 107, 3, 5, 110),
            "06_how_sure": (1603, 68, 4, 6, 100), "07_graph_routing": (1674, 172, 3, 5, 85),
            "08_parallel_branches": (1252, 111, 4, 5, 95), "09_agent_graph": (1423, 82, 4, 5, 85),
            "10_memory_and_cost": (1685, 119, 3, 5, 90), "11_helpers_and_plans": (1567, 177, 3, 5, 85),
            "12_capstone_pieces": (1489, 98, 4, 5, 90), "13_capstone": (1841, 101, 3, 5, 110)}
#: round 19 read twelve notebooks at 99952ac and 05 and 08 at c3469d8, after their cuts
ROUND_19 = {"00_start_here": (1315, 62, 2, 0, 40), "01_sticky_note_loop": (1265, 72, 4, 5, 95),
            "02_what_a_run_remembers": (1867, 162, 3, 5, 95), "03_state_cards": (1883, 161, 3, 5, 100),
            "04_observers": (1493, 182, 3, 5, 90), "05_reasoning_capture": (900, 60, 3, 5, 70),
            "06_how_sure": (1373, 42, 4, 6, 85), "07_graph_routing": (1677, 172, 3, 5, 100),
            "08_parallel_branches": (1125, 132, 3, 5, 85), "09_agent_graph": (1465, 82, 4, 5, 90),
            "10_memory_and_cost": (1876, 112, 3, 5, 100), "11_helpers_and_plans": (1570, 177, 3, 5, 105),
            "12_capstone_pieces": (1477, 99, 4, 5, 80), "13_capstone": (1904, 102, 3, 5, 115)}
ROUNDS = {"6": ROUND_6, "7": ROUND_7, "8": ROUND_8, "9": ROUND_9, "12": ROUND_12, "13": ROUND_13, "14": ROUND_14,
          "19": ROUND_19}


@pytest.mark.parametrize("round_", sorted(ROUNDS))
def test_the_tables_are_the_readers_file(round_):
    import csv

    with pacing.READERS.open(encoding="utf-8") as handle:
        said = {row["notebook"]: int(row["minutes"]) for row in csv.DictReader(handle) if row["round"] == round_}
    assert said == {notebook: figures[-1] for notebook, figures in ROUNDS[round_].items()}


def test_the_rates_give_the_readers_times_right_on_average_and_within_35_minutes_of_each():
    """Readers spread that much: round 6's old 07 (seven questions) comes out 26 minutes over its reader, and 13 was
    put at 80 minutes by round 13's reader and at 110 by round 14's, on nearly the same notebook."""
    misses = [pacing.Pace(notebook, *sizes[:4]).minutes - sizes[4]
              for table in ROUNDS.values() for notebook, sizes in table.items()]
    mean, worst = sum(misses) / len(misses), max(map(abs, misses))
    assert abs(mean) <= 3, f"the rates miss the readers by {mean:+.1f} minutes on average"
    # round 19's 13 came out 35 under its reader (115 minutes): its one exercise, 13.1, was the whole capstone
    # build, 50 minutes to that reader and 12 to the rates, so 13 was split after it, the build into three
    assert worst <= 35, f"one notebook is off by {worst} minutes"


def test_notebook_00_says_what_the_newest_full_round_of_readers_took():
    """00 tells the learner the headers run under the readers: its range and mean overrun are round 19's."""
    text = " ".join((ROOT / "notebooks" / "00_start_here.py").read_text(encoding="utf-8").replace("# ", "").split())
    said = re.search(r"they took (\d+) to (\d+) minutes a notebook, (\d+) more than the headers on average", text)
    assert said, "00 does not say what the readers took"
    times = [sizes[4] for sizes in ROUND_19.values()]
    over = sum(sizes[4] - pacing.Pace(notebook, *sizes[:4]).minutes for notebook, sizes in ROUND_19.items())
    assert (int(said[1]), int(said[2]), int(said[3])) == (min(times), max(times), round(over / len(times)))
