"""``python -m mingraph_lite demo|brief``: the course's runs from a terminal."""

from __future__ import annotations

import argparse
import sys

from .errors import MingraphError, StepLimitReached


def _demo_parser() -> argparse.ArgumentParser:
    from .llms.factory import FORMS

    parser = argparse.ArgumentParser(prog="python -m mingraph_lite demo",
                                     description="Ask the Paris/Tokyo question with the console logger.")
    parser.add_argument("--llm", default=None,
                        help=f"model spec: {', '.join(FORMS)}; default from MINGRAPH_LLM, else scripted")
    parser.add_argument("--trace", default=None, help="also append every announcement to this JSON Lines file")
    parser.add_argument("--max-steps", type=int, default=10, help="ceiling on model calls (default 10)")
    parser.add_argument("--unit-in-result", action="store_true", help='get_weather returns "18°C", not "18"')
    return parser


def demo(argv: list[str] | None = None) -> int:
    parser = _demo_parser()
    args = parser.parse_args(argv)
    if args.max_steps < 1:
        parser.error("--max-steps counts model calls and must be at least 1")

    from .agents import Agent
    from .course.scripts import QUESTION, SYSTEM_PROMPT, make_llm
    from .course.weather import weather_registry
    from .observers.console import ConsoleLogger
    from .observers.trace import TraceRecorder

    try:
        llm = make_llm(args.llm)
    except (OSError, ValueError, ImportError, MingraphError) as e:  # OSError: replay:PATH not found
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        observers = [ConsoleLogger()] + ([TraceRecorder(args.trace)] if args.trace else [])
    except OSError as e:
        print(f"error: cannot write the trace to {args.trace}: {e}", file=sys.stderr)
        return 2
    agent = Agent(llm, weather_registry(args.unit_in_result), SYSTEM_PROMPT, observers=observers,
                  max_steps=args.max_steps)
    print(f"model: {llm.name}")
    print(f"question: {QUESTION}")
    try:
        result = agent.run({"question": QUESTION})
    except StepLimitReached as e:
        print(f"stopped: {e}", file=sys.stderr)
        return 3
    except Exception as e:  # a failed tool or an unreachable model: say what, not a traceback
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"answer: {result['answer']}")
    if args.trace:
        print(f"trace: {args.trace}")
    return 0


COMMANDS = {"demo": "the Paris/Tokyo agent run", "brief": "the weather brief as a state graph"}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        listing = "\n".join(f"  {name:6} {text}" for name, text in COMMANDS.items())
        print(f"usage: python -m mingraph_lite COMMAND [options]\n\ncommands:\n{listing}",
              file=sys.stderr if argv and argv[0] not in ("-h", "--help") else sys.stdout)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    command, rest = argv[0], argv[1:]
    if command == "demo":
        return demo(rest)
    from .course.brief import brief_main

    return brief_main(rest)
