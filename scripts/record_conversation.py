"""Record one real conversation with a shipped local model under each memory strategy notebook 10 teaches.

Four questions in a row on one agent (the weather tools), once per memory: KeepAll, a window (LastN) and
Summarise (its summaries written by the same model). Each memory's run is written by TraceRecorder to
``data/runs/conversation-<strategy>-<model>.jsonl``; ``conversation-<model>.json`` beside them names the model,
its runtime, the settings, the seed, the command and what the model answered. Run it once, on purpose:

    nice -n 5 python scripts/record_conversation.py --model gemma3-270m

Nothing here is tuned to the answer: the questions, prompt and tools are the course's; the sampling settings are
the lab's `finish-right` ones (temperature 0.7; seed 100, the first of its seeds), fixed for every call.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import inspect
import json
import platform
import subprocess
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))  # the conversation's questions and memories live beside the notebooks

from lessons.conversation import REAL_MAX_STEPS, REAL_QUESTIONS, REAL_STRATEGIES, ask_all, real_memories  # noqa: E402
from mingraph_lite import Agent, TraceRecorder, read_trace  # noqa: E402
from mingraph_lite.course.scripts import SYSTEM_PROMPT  # noqa: E402
from mingraph_lite.course.weather import weather_registry  # noqa: E402
from mingraph_lite.llms.local import MODELS, LocalLLM, find_gguf  # noqa: E402


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _commit() -> str | None:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() or None


def record(llm: LocalLLM, strategy: str, out: Path) -> None:
    """Ask every question under one memory; the trace goes to ``out``."""
    path = out / f"conversation-{strategy}-{llm.model}.jsonl"
    path.unlink(missing_ok=True)  # one recording per file, never two appended
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, memory=real_memories(llm)[strategy],
                  observers=[TraceRecorder(path)], max_steps=REAL_MAX_STEPS)
    ask_all(agent, REAL_QUESTIONS)


def what_happened(path: Path) -> dict:
    """Read back from a trace: wall time, and how each question ended (its answer, or why there is none)."""
    events = read_trace(path)
    stamps = [datetime.fromisoformat(e["ts"]) for e in events]
    ends = [e for e in events if e["event"] == "finish"]
    return {"trace": path.name, "wall_seconds": round((stamps[-1] - stamps[0]).total_seconds(), 1),
            "turns": [{"question": q, "answer": e.get("answer"), "ended": e.get("reason")}
                      for q, e in zip(REAL_QUESTIONS, ends, strict=False)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gemma3-270m", choices=sorted(MODELS))
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--strategy", action="append", choices=sorted(REAL_STRATEGIES),
                        help="record only this memory (repeat for more; default: all), e.g. one process each")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "runs")
    parser.add_argument("--describe-only", action="store_true",
                        help="record nothing: rewrite the description from the traces already in --out")
    parser.add_argument("--how", default="", help="a note on how the traces were recorded, kept in the description")
    args = parser.parse_args(argv)
    if not args.describe_only:
        llm = LocalLLM(args.model, temperature=args.temperature, seed=args.seed, n_ctx=args.n_ctx)
        for strategy in args.strategy or REAL_STRATEGIES:
            record(llm, strategy, args.out)
    # The description covers every recording of this model in ``out``, so memories recorded apart share one.
    traces = {name: args.out / f"conversation-{name}-{args.model}.jsonl" for name in REAL_STRATEGIES}
    about = {
        "model": f"local:{args.model}", "weights": find_gguf(args.model).name,
        "packages": {p: _version(p) for p in ("xllamacpp", MODELS[args.model].replace("_", "-"), "mingraph-lite")},
        "settings": {"temperature": args.temperature, "seed": args.seed, "n_ctx": args.n_ctx,
                     "max_tokens": inspect.signature(LocalLLM).parameters["max_tokens"].default,
                     "max_steps": REAL_MAX_STEPS, "tools": "weather_registry()", "system_prompt": SYSTEM_PROMPT},
        "strategies": REAL_STRATEGIES,
        "command": f"nice -n 5 python scripts/record_conversation.py --model {args.model}"
                   + "".join(f" --strategy {name}" for name in args.strategy or ()),
        "recorded": min((read_trace(path)[0]["ts"][:19] for path in traces.values() if path.exists()),
                        default=None), "commit": _commit(),
        "machine": f"{platform.machine()}, {platform.system()}", "how": args.how or None,
        "runs": {name: what_happened(path) for name, path in traces.items() if path.exists()},
    }
    (args.out / f"conversation-{args.model}.json").write_text(json.dumps(about, indent=2, ensure_ascii=False) + "\n",
                                                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
