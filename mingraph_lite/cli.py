"""``python -m mingraph_lite demo|brief|serve``: the course's runs from a terminal, and a model for a class."""

from __future__ import annotations

import argparse
import sys

from .errors import MingraphError, StepLimitReached


def demo(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mingraph_lite demo",
                                     description="Ask the Paris/Tokyo question with the console logger.")
    parser.add_argument("--llm", default=None,
                        help="model spec: scripted (default), ollama:MODEL, openai:MODEL, local[:MODEL], "
                             "replay:PATH; default from MINGRAPH_LLM")
    parser.add_argument("--trace", default=None, help="also append every announcement to this JSON Lines file")
    parser.add_argument("--max-steps", type=int, default=10, help="ceiling on model calls (default 10)")
    parser.add_argument("--unit-in-result", action="store_true", help='get_weather returns "18°C", not "18"')
    args = parser.parse_args(argv)
    if args.max_steps < 1:
        parser.error("--max-steps counts model calls and must be at least 1")

    from .agents import Agent
    from .course.scripts import QUESTION, SYSTEM_PROMPT
    from .course.weather import weather_registry
    from .llms.factory import make_llm
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
    print(f"model: {getattr(llm, 'name', type(llm).__name__)}")
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


def serve(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mingraph_lite serve",
                                     description="Serve a shipped local model over an OpenAI-compatible HTTP API, "
                                                 "so a class can share one machine's model.")
    parser.add_argument("--model", default="smollm2-135m", help="smollm2-135m (default), gemma3-270m or a .gguf path")
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let the room's laptops in (default loopback)")
    parser.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 picks a free one)")
    parser.add_argument("--parallel", type=int, default=4, help="requests served at once (default 4)")
    args = parser.parse_args(argv)
    if not 0 <= args.port < 65536 or args.parallel < 1:
        parser.error("--port must be 0-65535 and --parallel at least 1")

    import time

    from .llms.local import LocalServer

    try:
        server = LocalServer(args.model, host=args.host, port=args.port, n_parallel=args.parallel,
                             n_ctx=2048 * args.parallel)
    except (ValueError, MingraphError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"serving {server.model} at {server.base_url} (Ctrl-C stops)\n"
          f"on each laptop: OPENAI_BASE_URL={server.base_url} OPENAI_API_KEY=class "
          f"MINGRAPH_LLM=openai:{server.model}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.close()
    return 0


COMMANDS = {"demo": "the Paris/Tokyo agent run", "brief": "the weather brief as a state graph",
            "serve": "a local model over HTTP for a class"}


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
    if command == "serve":
        return serve(rest)
    from .course.brief import brief_main

    return brief_main(rest)
