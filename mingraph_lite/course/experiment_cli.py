"""``python -m mingraph_lite experiment unit|compare``: the experiment harness from a terminal.

Exit codes: 0 done, 1 the model could not be reached, 2 bad options (one sentence on stderr),
130 interrupted (the folder stays consistent: the same command resumes).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

from ..errors import LLMUnavailable


def _unit_parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"python -m mingraph_lite experiment {name}",
        description='Run the unit experiment: get_weather returning "18" vs "18°C", N runs per variant, '
                    "each traced and classified by its first wrong line; re-running resumes.")
    parser.add_argument("--llm", default="scripted",
                        help="scripted (default: modelled behaviour, not a real model), local[:MODEL], "
                             "ollama:MODEL or openai:MODEL")
    parser.add_argument("--runs", type=int, default=8, help="runs per variant (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="run i of each variant uses seed SEED+i (default 0)")
    parser.add_argument("--temperature", type=float, default=0.7,
                        help="sampling temperature (default 0.7; 0 is greedy and the runs repeat each other)")
    parser.add_argument("--workers", type=int, default=1,
                        help="runs at once against a server model (default 1; the local model runs one at a time)")
    parser.add_argument("--threads", type=int, default=None,
                        help="CPU threads of a local model (default: all; 1 is fastest on a busy machine)")
    parser.add_argument("--max-steps", type=int, default=6, help="ceiling on model calls per run (default 6)")
    parser.add_argument("--out", required=True, help="the result folder (created; an existing one is resumed)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def unit_main(argv: list[str]) -> int:
    args = _unit_parser("unit").parse_args(argv)
    from .compare import compare, save_figure
    from .experiments import run_experiment

    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = lambda message, *rest: print(f"note: {message}", file=sys.stderr)
            results = run_experiment(args.llm, out=args.out, runs=args.runs, seed=args.seed,
                                     temperature=args.temperature, workers=args.workers,
                                     max_steps=args.max_steps, threads=args.threads,
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
    _figure(lambda: save_figure(compare([args.out]), args.out))
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
        description="One table and one figure over result folders (folders with the same model and "
                    "temperature are pooled), with 95%% Wilson score intervals.")
    parser.add_argument("folders", nargs="+", help="result folders written by `experiment unit`")
    parser.add_argument("--figure", default="comparison.png", help="where to save the figure (PNG)")
    args = parser.parse_args(argv)
    from .compare import compare

    try:
        comparison = compare(args.folders)
        print(comparison.table())
        _figure(lambda: comparison.save(args.figure))
    except (ValueError, OSError) as e:
        return _fail(str(e))
    return 0


EXPERIMENT_COMMANDS = {"unit": unit_main, "compare": compare_main}


def experiment_main(argv: list[str]) -> int:
    """Dispatch ``experiment unit ...`` and ``experiment compare ...``."""
    if not argv or argv[0] not in EXPERIMENT_COMMANDS:
        print("usage: python -m mingraph_lite experiment {unit,compare} [options]\n"
              "  unit     run (or resume) the unit experiment into a folder\n"
              "  compare  one table and figure over result folders",
              file=sys.stdout if argv[:1] in (["-h"], ["--help"]) else sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return EXPERIMENT_COMMANDS[argv[0]](argv[1:])
