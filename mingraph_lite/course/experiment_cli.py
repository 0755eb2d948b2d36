"""``python -m mingraph_lite experiment run|unit|compare|table``: the experiment harness from a terminal.

Exit codes: 0 done, 1 the model could not be reached, 2 bad input (one sentence on stderr),
130 interrupted (the folder stays consistent: the same command resumes).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

from ..errors import LLMUnavailable


def _run_parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"python -m mingraph_lite experiment {name}",
        description="Run an experiment definition (`unit` is `run unit`): N runs per variant, each traced and "
                    "classified by its first wrong line; re-running resumes.")
    if name == "run":
        parser.add_argument("definition", help="a .toml file, or a shipped name: unit, worked-example, "
                                               "units-everywhere, finish-right")
    parser.add_argument("--llm", default="scripted", help="scripted (default: modelled, not a real model), "
                                                          "local[:MODEL], ollama:MODEL or openai:MODEL")
    parser.add_argument("--runs", type=int, default=8, help="runs per variant (default 8)")
    parser.add_argument("--seed", type=int, default=None,
                        help="run i of each variant uses seed SEED+i (default: drawn once, kept in the folder)")
    parser.add_argument("--temperature", type=float, default=0.7, help="where a variant sets none (default 0.7)")
    parser.add_argument("--workers", type=int, default=1, help="runs at once against a server model (default 1)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads of a local model (default: all)")
    parser.add_argument("--max-steps", type=int, default=6, help="model calls per run where a variant sets none "
                                                                 "(default 6)")
    parser.add_argument("--out", required=True, help="the result folder (created; an existing one is resumed)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def run_main(argv: list[str], name: str = "run") -> int:
    args = _run_parser(name).parse_args(argv)
    from .compare import compare
    from .experiments import run_experiment
    from .results_folder import FIGURE

    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = lambda message, *rest: print(f"note: {message}", file=sys.stderr)
            results = run_experiment(args.llm, out=args.out, experiment=getattr(args, "definition", "unit"),
                                     runs=args.runs, seed=args.seed, temperature=args.temperature,
                                     workers=args.workers, max_steps=args.max_steps, threads=args.threads,
                                     progress=not args.no_progress)
    except (ValueError, ImportError, OSError) as e:
        return _fail(str(e))
    except LLMUnavailable as e:
        return _fail(f"{e} (the runs recorded so far stay in {args.out})", 1)
    except KeyboardInterrupt:
        return _fail(f"interrupted: every finished run is recorded in {args.out}; run the same command "
                     "again to resume", 130)
    print(results.table())
    print(f"folder: {args.out} (results.csv, summary.json, traces/); "
          f"wall time {time.perf_counter() - started:.0f} s")
    _figure(lambda: compare([args.out]).save(Path(args.out) / FIGURE))
    return 0


def _figure(save) -> None:
    """Draw the figure, or say in one line which extra draws it: the table and CSV stand without it."""
    try:
        print(f"figure: {save()}")
    except ImportError:
        print("figure: not drawn, matplotlib is missing: pip install 'mingraph-lite[plots]'")


def compare_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mingraph_lite experiment compare",
        description="Pool a class's result folders of one definition: one table (each (model, variant) a row, "
                    "with 95% Wilson score intervals), its CSV and its figure.")
    parser.add_argument("folders", nargs="+", help="result folders written by `experiment run`")
    parser.add_argument("--out", help="where comparison.csv and comparison.png go (default: beside the folders)")
    parser.add_argument("--figure", help="the figure's path instead (the CSV goes beside it)")
    args = parser.parse_args(argv)
    from .compare import compare

    figure = Path(args.figure) if args.figure else Path(args.out or _beside(args.folders)) / "comparison.png"
    try:
        comparison = compare(args.folders)
        figure.parent.mkdir(parents=True, exist_ok=True)
        table = figure.with_suffix(".csv")
        table.write_text(comparison.csv(), encoding="utf-8")
        print(comparison.table())
        print("each folder's share:\n" + comparison.folder_shares())
        print(f"table: {table}")
        _figure(lambda: comparison.save(figure))
    except (ValueError, OSError) as e:
        return _fail(str(e))
    return 0


def _beside(folders: list[str]) -> str:
    """The folders' common parent (results stay with the class's folders), relative when under the current one."""
    common = os.path.commonpath([str(Path(f).resolve().parent) for f in folders])
    return os.path.relpath(common) if Path(common).is_relative_to(Path.cwd().resolve()) else common


def table_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mingraph_lite experiment table",
        description="The tested-models table (model, variant, right rate with its interval, runs, date, commit) "
                    "from recorded folders, one section per definition.")
    parser.add_argument("folders", nargs="+", help="result folders written by `experiment run`")
    parser.add_argument("--out", help="the Markdown file to write (default: print it)")
    args = parser.parse_args(argv)
    from .compare import compare, models_table, read_folder

    by_definition: dict[str, list[str]] = {}
    for folder in args.folders:
        if (read := read_folder(folder)) is None:
            print(f"warning: skipped {folder}: no recorded runs", file=sys.stderr)
        else:
            by_definition.setdefault(read.definition, []).append(folder)
    try:
        text = "\n".join(models_table(compare(folders)) for folders in by_definition.values())
    except ValueError as e:
        return _fail(str(e))
    command = "python -m mingraph_lite experiment table " + " ".join(args.folders) + f" --out {args.out}"
    if args.out:
        Path(args.out).write_text(f"# Tested models\n\nWritten by `{command}` from the recorded folders: do not "
                                  f"edit by hand, run it again.\n\n{text}", encoding="utf-8")
    print(f"table: {args.out}" if args.out else text, end="\n" if args.out else "")
    return 0


EXPERIMENT_COMMANDS = {"run": run_main, "unit": lambda argv: run_main(argv, "unit"), "compare": compare_main,
                       "table": table_main}


def experiment_main(argv: list[str]) -> int:
    """Dispatch ``experiment run|unit|compare|table ...``."""
    if not argv or argv[0] not in EXPERIMENT_COMMANDS:
        print("usage: python -m mingraph_lite experiment {run,unit,compare,table} [options]\n"
              "  run      run (or resume) an experiment definition into a folder\n"
              "  unit     the same as `run unit`\n"
              "  compare  pool folders of one definition: one table, CSV and figure\n"
              "  table    the tested-models table (docs/models.md) from recorded folders",
              file=sys.stdout if argv[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return EXPERIMENT_COMMANDS[argv[0]](argv[1:])
