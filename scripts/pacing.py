"""How long each notebook takes a learner, estimated from its size with rates fitted to measured learner times.

Two sets of learner times fix the rates. A reviewer who worked the second edition as a learner (reading, predicting,
doing every exercise) timed it at about 10 hours; its notebook 01 (3,299 words of prose, 355 lines of code,
5 exercises) went over 90 minutes and its notebook 05 (3,655 words, 502 lines, 4 exercises) took 2 to 2.5 hours.
Fresh readers of the third edition each gave a learner's time for one notebook, six rounds so far
(``data/pacing/reader_estimates.csv``: round 6, eleven notebooks, 28 to 125 minutes; rounds 7 and 8, after the
notebooks were cut and split, thirteen each, 30 to 118; rounds 9, 12 and 13, fourteen each, 40 to 105). With
prose at 130 words a minute and code read and run at 7 lines a minute, the least-squares fit of all 79 figures
gives 12.2 minutes an exercise and 3.0 a question: the rates are 12 and 3. Each earlier fit came out under the
next rounds' readers (5 and 1.5 under every reader of round 6; 12 and 2.5, fitted on rounds 6 to 8, under rounds
9, 12 and 13 by 5 minutes a notebook), so the rates follow the readers, not the other way round. They are right
on average over the six rounds and within 26 minutes of each figure (the worst is round 6's old 07, with seven
questions), and keep the reviewer's ordering (``tests/notebooks/test_pacing.py``). Round 14, read after the refit,
came out 7 minutes a notebook over them (13 alone by 30: its round-13 reader had said 80, its round-14 reader 110);
round 19 (fourteen, 40 to 115) came out 8.5 over, 13 by 35: its one exercise was the whole capstone build, about 50
minutes to its readers against 12 here, so 13 was split after it and the build became three exercises. Over all
eight rounds the rates run 2.3 minutes under the readers on average and within 35 of each figure.
A notebook's header states the figure this prints for it, and the test fails when they drift apart or a notebook
goes over 90 minutes.

    .venv/bin/python scripts/pacing.py            # the course as it is
    .venv/bin/python scripts/pacing.py OLD/notebooks

These are estimates from length, not timings. Fresh readers who worked the notebooks as learners (agents, not
people: nobody has timed a human yet) put their own figures beside them, in ``data/pacing/reader_estimates.csv``
with how each was reached; the last column prints the newest round's, for the commit it read. They run higher.
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import jupytext

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
READERS = NOTEBOOKS.parent / "data" / "pacing" / "reader_estimates.csv"
WORDS_PER_MINUTE, CODE_LINES_PER_MINUTE, PER_EXERCISE, PER_QUESTION = 130, 7, 12.0, 3.0
EXERCISE = re.compile(r"""\bcheck\(\s*["']\d\d\.\d+["']""")
QUESTION = re.compile(r"^\d+\. ", re.M)


@dataclass(frozen=True)
class Pace:
    notebook: str
    words: int
    code_lines: int
    exercises: int
    questions: int

    @property
    def minutes(self) -> int:
        return round(self.words / WORDS_PER_MINUTE + self.code_lines / CODE_LINES_PER_MINUTE
                     + PER_EXERCISE * self.exercises + PER_QUESTION * self.questions)


def pace(path: Path) -> Pace:
    cells = jupytext.read(path).cells
    prose = [c.source for c in cells if c.cell_type == "markdown"]
    code = [line for c in cells if c.cell_type == "code" for line in c.source.splitlines()
            if line.strip() and not line.strip().startswith("#")]
    start = next((i for i, text in enumerate(prose) if text.startswith("## Questions")), len(prose))
    questions = sum(len(QUESTION.findall(text)) for text in prose[start:])
    return Pace(path.stem, sum(len(text.split()) for text in prose), len(code),
                len(EXERCISE.findall(path.read_text(encoding="utf-8"))), questions)


def course(folder: Path = NOTEBOOKS) -> list[Pace]:
    return [pace(path) for path in sorted(folder.glob("[0-9][0-9]_*.py"))]


def reader_estimates(path: Path = READERS) -> tuple[str, dict[str, int]]:
    """The newest round of fresh readers' own estimates: the commit they read, and minutes per notebook."""
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    newest = max(int(row["round"]) for row in rows)
    rows = [row for row in rows if int(row["round"]) == newest]
    return rows[0]["commit"], {row["notebook"]: int(row["minutes"]) for row in rows}


def main(argv: list[str]) -> int:
    paces = course(Path(argv[0]) if argv else NOTEBOOKS)
    commit, readers = reader_estimates()
    print(f"{'notebook':32}{'words':>7}{'code':>6}{'ex.':>5}{'qs':>4}{'minutes':>9}{'reader':>8}")
    for p in paces:
        print(f"{p.notebook:32}{p.words:>7}{p.code_lines:>6}{p.exercises:>5}{p.questions:>4}{p.minutes:>9}"
              f"{readers.get(p.notebook, '-'):>8}")
    total = sum(p.minutes for p in paces)
    print(f"{'total':32}{'':>22}{total:>9}  ({total / 60:.1f} hours)")
    print(f"reader: a fresh reader's own estimate of a learner's time (an agent, not a timed person), "
          f"for commit {commit}; data/pacing/reader_estimates.csv says how each was reached")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
