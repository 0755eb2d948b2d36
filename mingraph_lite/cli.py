"""``python -m mingraph_lite COMMAND``: each command is a function ``argv -> exit code`` in ``COMMANDS``; a problem
is one redacted ``error: ...`` line. Exit codes: 0 done, 1 run failed, 2 bad input, 3 no answer, 141 SIGPIPE."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import runpy
import socket
import sys
import warnings
from collections.abc import Callable, Iterator
from importlib import import_module

from .errors import MingraphError, StepLimitReached
from .redaction import redact

BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for `yes | head -1`


def _error(problem: object) -> None:
    print(f"error: {redact(str(problem))}", file=sys.stderr)


def _sentence(exc: BaseException) -> str:
    """An exception as the sentence a person reads: no errno tuple, no traceback."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror if exc.filename is None else f"cannot use {exc.filename}: {exc.strerror}"
    return str(exc)


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake told in one line (argparse alone prints the usage first)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"error: {message}; see {self.prog} --help\n")


def _demo_parser() -> argparse.ArgumentParser:
    from .llms.factory import FORMS

    parser = _Parser(prog="python -m mingraph_lite demo", description="Ask a task's question with the console logger.")
    parser.add_argument("--llm", default=None,
                        help=f"model spec: {', '.join(FORMS)}; default from MINGRAPH_LLM, else scripted")
    parser.add_argument("--trace", default=None, help="also append every announcement to this JSON Lines file")
    parser.add_argument("--max-steps", type=int, default=10, help="ceiling on model calls (default 10)")
    parser.add_argument("--unit-in-result", action="store_true", help='get_weather returns "18°C", not "18"')
    parser.add_argument("--task", default=None, help="a Python file defining TOOLS (a ToolRegistry), SYSTEM_PROMPT, "
                        "QUESTION and SCRIPTED (its scripted model); default the Paris/Tokyo weather question")
    return parser


def _task(path: str | None, unit_in_result: bool) -> tuple:
    """(registry, system prompt, question, scripted model) of a task file, loaded by path; else the weather task."""
    from .course import scripts
    from .course.weather import weather_registry
    if path is None:
        return weather_registry(unit_in_result), scripts.SYSTEM_PROMPT, scripts.QUESTION, scripts.four_round_manager
    if not (path.endswith(".py") and os.path.isfile(path)):
        raise ValueError(f"the task file {path} is not a readable .py file")
    try:
        task = runpy.run_path(path, run_name="mingraph_task")
    except Exception as e:  # a task file can fail any way: say which file, and how
        raise ValueError(f"the task file {path} failed to load: {type(e).__name__}: {e}") from None
    missing = [name for name in ("TOOLS", "SYSTEM_PROMPT", "QUESTION", "SCRIPTED") if name not in task]
    if missing:
        raise ValueError(f"the task file {path} does not define {', '.join(missing)}")
    return task["TOOLS"], task["SYSTEM_PROMPT"], task["QUESTION"], task["SCRIPTED"]


def demo(argv: list[str] | None = None) -> int:
    """Ask a task's question (the weather one by default) with the console logger (and, with --trace, a trace)."""
    parser = _demo_parser()
    args = parser.parse_args(argv)
    if args.max_steps < 1 or (args.task and args.unit_in_result):
        parser.error("--max-steps must be at least 1; --unit-in-result belongs to the weather task, not --task")

    from .agents import Agent
    from .llms.factory import llm_from_spec, parse_spec
    from .observers.console import ConsoleLogger
    from .observers.trace import TraceRecorder

    try:
        registry, system_prompt, question, scripted = _task(args.task, args.unit_in_result)
        llm = llm_from_spec(parse_spec(args.llm), scripted=scripted)
    except (OSError, ValueError, ImportError, MingraphError) as e:  # OSError: replay:PATH not readable
        _error(_sentence(e))
        return 2
    try:
        trace = TraceRecorder(args.trace) if args.trace else None  # opens the file: fails here, not mid-run
    except OSError as e:
        _error(f"cannot write the trace to {args.trace}: {e.strerror or e}; give a writable file path")
        return 2
    agent = Agent(llm, registry, system_prompt, observers=[ConsoleLogger()] + ([trace] if trace else []),
                  max_steps=args.max_steps)
    print(f"model: {llm.name}\nquestion: {question}")
    code = _run(agent, {"question": question})
    if trace is not None and trace.unwritten:
        _error(f"the trace {args.trace} is incomplete: {trace.unwritten} of {trace.announcements} lines could not be "
               f"written ({_sentence(trace.last_error)})")
        return code or 1
    if trace is not None and code == 0:
        print(f"trace: {args.trace}")
    return code


def _run(agent, inputs: dict) -> int:
    try:
        result = agent.run(inputs)
    except StepLimitReached as e:
        print(f"stopped: {redact(str(e))}", file=sys.stderr)
        return 3
    except Exception as e:  # a failed tool or an unreachable model: say what, not a traceback
        _error(f"{type(e).__name__}: {_sentence(e)}")
        return 1
    print(f"answer: {redact(str(result['answer']))}")
    return 0


def _course(module: str, function: str) -> Callable[[list[str]], int]:
    return lambda argv: getattr(import_module(f".course.{module}", __package__), function)(argv)


SERVE_MODEL = "gemma3-270m"  # of the shipped models, the one that calls tools when served
SERVE_MAX_TOKENS = 96  # served Gemma writes calls until the cap; why 96: the README's class section


def _serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mingraph_lite serve",
                                     description="Serve a shipped local model over an OpenAI-compatible HTTP API, "
                                                 "so a class can share one machine's model.")
    parser.add_argument("--model", default=SERVE_MODEL,
                        help=f"{SERVE_MODEL} (default), smollm2-135m or a .gguf path; served SmolLM2 answers "
                             "in prose and never calls a tool")
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let the room's laptops in (default loopback)")
    parser.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 picks a free one)")
    parser.add_argument("--parallel", type=int, default=4, help="requests served at once (default 4)")
    parser.add_argument("--max-tokens", type=int, default=SERVE_MAX_TOKENS,
                        help=f"cap on each reply's tokens (default {SERVE_MAX_TOKENS})")
    return parser


def serve(argv: list[str]) -> int:
    """A local model over HTTP for a class: runs until Ctrl-C."""
    parser = _serve_parser()
    args = parser.parse_args(argv)
    if not 0 <= args.port < 65536 or args.parallel < 1 or args.max_tokens < 1:
        parser.error("--port must be 0-65535, --parallel and --max-tokens at least 1")
    import time

    from .llms.local import LocalServer

    try:
        server = LocalServer(args.model, host=args.host, port=args.port, n_parallel=args.parallel,
                             n_ctx=2048 * args.parallel, max_tokens=args.max_tokens)
    except (ValueError, MingraphError) as e:
        _error(e)
        return 2
    try:  # Ctrl-C may come at any moment from here on, even before the first sleep
        print(f"serving {server.model} at {server.base_url} (Ctrl-C stops)\n"
              f"on each laptop: OPENAI_BASE_URL={server.base_url.replace('0.0.0.0', socket.gethostname())} "
              f"OPENAI_API_KEY=class MINGRAPH_LLM=openai:{server.model}", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        server.close()


COMMANDS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "demo": ("the Paris/Tokyo agent run", demo),
    "brief": ("the weather brief as a state graph", _course("brief", "brief_main")),
    "serve": ("a local model over HTTP for a class", serve),
    "experiment": ("run a definition; pool a class's folders", _course("experiment_cli", "experiment_main")),
}


class _OneLine(logging.Formatter):
    """A listener's failure as one line: the reader needs what failed, not the stack."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {_sentence(record.exc_info[1])})"
        return "warning: " + redact(text)


class _Once(logging.Filter):
    """The same failure is told once, not at every announcement."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[str, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        key = (record.name, f"{type(error).__name__}: {error}" if error is not None else record.getMessage())
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def _usage(argv: list[str]) -> int:
    listing = "\n".join(f"  {name:6} {text}" for name, (text, _) in COMMANDS.items())
    asked = argv[:1] in (["-h"], ["--help"])
    print(f"usage: python -m mingraph_lite COMMAND [options]\n\ncommands:\n{listing}",
          file=sys.stdout if asked else sys.stderr)
    return 0 if asked else 2


@contextlib.contextmanager
def _one_line_reports() -> Iterator[None]:
    """Warnings and listener failures as one ``warning:`` line each on stderr, for this command only."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler.addFilter(_Once())
    log = logging.getLogger("mingraph_lite")
    log.addHandler(handler)
    propagate, log.propagate = log.propagate, False
    try:
        with warnings.catch_warnings():
            warnings.showwarning = lambda message, *_, **__: print(f"warning: {redact(str(message))}", file=sys.stderr)
            yield
    finally:
        log.removeHandler(handler)
        log.propagate = propagate


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        with _one_line_reports():
            code = COMMANDS[argv[0]][1](argv[1:]) if argv and argv[0] in COMMANDS else _usage(argv)
            sys.stdout.flush()  # inside the try: a closed pipe shows up here, not at interpreter exit
        return code
    except BrokenPipeError:
        # send what is still buffered nowhere, and end without a word
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
