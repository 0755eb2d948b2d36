"""The unit experiment: does the model need the unit *in* get_weather's result?

The source article asked qwen3.5:0.8b the Paris/Tokyo question 8 times with ``get_weather``
returning a bare ``"18"`` and 8 times with ``"18°C"`` (``REPORTED``). This harness repeats that:
N traced runs per variant, each run classified by the first wrong line of its trace (``classify``,
a pure function of the trace's events), a summary per variant, a CSV.

Without a live model it runs *scripted managers modelling the reported behaviour* (``modelled_manager``):
a seeded ``random.Random`` picks each run's behaviour with the reported frequencies. That shows how the
harness works and how much 8 runs wobble; it measures nothing. Pass a live model to measure.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..agents import Agent
from ..errors import LLMUnavailable
from ..llms.base import LLM, LLMResponse
from ..llms.scripted import ScriptedLLM
from ..messages import AssistantMessage, ToolCall
from ..observers.trace import TraceRecorder, read_trace
from .scripts import QUESTION, SYSTEM_PROMPT, number, results
from .weather import WEATHER, to_fahrenheit, weather_registry

#: Every outcome, "right" first; the others are the four cases of the first wrong line, in order.
OUTCOMES = ("right", "wrong slip", "wrong tool result", "wrong final reasoning", "never finished")
CASES = {"wrong slip": 1, "wrong tool result": 2, "wrong final reasoning": 3, "never finished": 4}
CITIES = ("Paris", "Tokyo")  # the two the question asks about


@dataclass(frozen=True)
class Variant:
    name: str             # what get_weather("Paris") returns, as a label: "18" or "18°C"
    unit_in_result: bool
    slug: str             # for file names


VARIANTS = (Variant("18", False, "bare"), Variant("18°C", True, "unit"))


@dataclass(frozen=True)
class Reported:
    """One row of the source article's table (qwen3.5:0.8b, same agent and question)."""

    variant: str
    runs: int
    right_numbers: int
    celsius_as_fahrenheit: int


REPORTED = (Reported("18", 8, 0, 6), Reported("18°C", 8, 6, 0))
REPORTED_SOURCE = "reported in the source article (seed 000): qwen3.5:0.8b, 8 runs per variant"
REPORTED_NOTES = ('Of the 6 right "18°C" runs, only 2 called to_fahrenheit; 4 did the arithmetic themselves. '
                  "One run skipped get_weather, made up 10°C and 5°C and answered 50°F and 41°F.")


# ----------------------------------------------------------------- reading one trace

@dataclass(frozen=True)
class Verdict:
    """Where a run first went wrong: ``line`` is the 1-based position of that event in the run."""

    outcome: str
    line: int | None
    why: str
    celsius_as_fahrenheit: bool = False   # the reply gave a city's Celsius number as its Fahrenheit
    converted_with_tool: bool = False     # to_fahrenheit was called (the prompt asks for it)

    @property
    def case(self) -> int | None:
        return CASES.get(self.outcome)


_TEMP = re.compile(r"(-?\d+(?:\.\d+)?)\s*(°\s*[CF]\b|degrees?\s+(?:celsius|fahrenheit)|[CF]\b)?", re.I)


def stated_fahrenheit(text: str, cities: Sequence[str] = CITIES) -> dict[str, float | None]:
    """The Fahrenheit number a reply gives for each city (a number after the city's name).

    A number marked °F wins; a bare number counts when there is none; a °C number never does.
    """
    mentions = sorted((m.start(), city) for city in cities for m in re.finditer(re.escape(city), text, re.I))
    marked: dict[str, list[float]] = {c: [] for c in cities}
    bare: dict[str, list[float]] = {c: [] for c in cities}
    for match in _TEMP.finditer(text):
        owners = [city for pos, city in mentions if pos < match.start()]
        if not owners:
            continue
        unit = (match.group(2) or "").lower()
        if "f" in unit:
            marked[owners[-1]].append(float(match.group(1)))
        elif not unit:
            bare[owners[-1]].append(float(match.group(1)))
    return {c: (marked[c] or bare[c] or [None])[0] for c in cities}


def _args(raw: Any) -> dict[str, Any]:
    if isinstance(raw, Mapping):
        return dict(raw)
    try:
        parsed = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def classify(events: Iterable[Mapping[str, Any]], cities: Sequence[str] = CITIES) -> Verdict:
    """Read one run's events top to bottom and stop at the first wrong line.

    Right means: every slip was for a city asked about or a number a tool returned, every answer
    slip matches the teaching data, and the final reply gives each city's Fahrenheit (within 1°).
    """
    known = {c.lower(): c for c in WEATHER}
    celsius = {c: float(WEATHER[c]["celsius"]) for c in WEATHER}  # type: ignore[arg-type]
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    looked_up: set[str] = set()
    received: list[float] = []   # the Celsius numbers the folder holds from get_weather
    used_tool = final_ok = False

    def verdict(outcome: str, line: int | None, why: str, as_f: bool = False) -> Verdict:
        return Verdict(outcome, line, why, celsius_as_fahrenheit=as_f, converted_with_tool=used_tool)

    for line, event in enumerate(events, 1):
        kind = event.get("event")
        if kind == "tool_call":
            name, args = event.get("name"), _args(event.get("arguments"))
            calls[str(event.get("id"))] = (name, args)
            if name == "get_weather":
                if known.get(str(args.get("city", "")).strip().lower()) not in cities:
                    return verdict("wrong slip", line, f"get_weather({args.get('city')!r}): not a city "
                                   "the question asks about")
            elif name == "to_fahrenheit":
                used_tool = True
                value = args.get("celsius")
                if not _is_number(value) or not any(abs(value - r) < 0.01 for r in received):
                    return verdict("wrong slip", line, f"to_fahrenheit({value!r}): no get_weather returned "
                                   "that number, so the model made it up")
            else:
                return verdict("wrong slip", line, f"{name!r} is not on the menu")
        elif kind == "tool_return":
            name, args = calls.get(str(event.get("tool_call_id")), (event.get("name"), {}))
            content = str(event.get("content", ""))
            try:
                got: float | None = float(number(content))
            except ValueError:
                got = None
            if name == "get_weather":
                city = known.get(str(args.get("city", "")).strip().lower())
                if city is None:
                    continue  # an answer slip whose slip isn't in this trace: nothing to check it against
                expected = celsius[city]
            else:
                expected = float(to_fahrenheit(args.get("celsius", 0)))
            if event.get("is_error") or got is None or abs(got - expected) > 0.5:
                return verdict("wrong tool result", line, f"{name}({args}) answered {content!r}, "
                               f"expected {expected:g}")
            if name == "get_weather":
                looked_up.add(city)
                received.append(got)
        elif kind == "tool_error":
            call = event.get("call") or {}
            return verdict("wrong tool result", line, f"{call.get('name')} failed: "
                           f"{event.get('error_type')}: {event.get('error')}")
        elif kind == "model_reply" and not (event.get("message") or {}).get("tool_calls"):
            missing = [c for c in cities if c not in looked_up]
            if missing:
                return verdict("wrong slip", line, f"answered without get_weather for {', '.join(missing)}: "
                               "those numbers did not come from a tool")
            stated = stated_fahrenheit(str((event.get("message") or {}).get("content", "")), cities)
            wrong = {c: v for c, v in stated.items()
                     if v is None or abs(v - to_fahrenheit(celsius[c])) > 1}
            if wrong:
                as_f = any(v is not None and abs(v - celsius[c]) < 0.5 for c, v in wrong.items())
                said = ", ".join(f"{c} {'nothing' if v is None else f'{v:g}°F'}" for c, v in wrong.items())
                return verdict("wrong final reasoning", line,
                               f"every answer slip right, but the reply says {said}", as_f)
            final_ok = True
        elif kind == "finish":
            if event.get("reason") == "answered" and final_ok:
                how = "with to_fahrenheit" if used_tool else "doing the arithmetic itself"
                return verdict("right", None, f"right numbers, converted {how}")
            return verdict("never finished", line, f"the run ended with {event.get('reason')!r}")
    return verdict("never finished", None, "the trace stops before the run finished")


# ----------------------------------------------------------------- scripted managers modelling the report

#: Behaviour -> runs out of 8, per variant, from ``REPORTED`` and ``REPORTED_NOTES``. The article does not
#: say what the remaining runs did ("not described"): they are modelled as a manager that keeps asking.
MODELLED = {
    "18": {"celsius as fahrenheit": 6, "kept asking (not described)": 2},
    "18°C": {"right, with to_fahrenheit": 2, "right, own arithmetic": 4, "made up numbers": 1,
             "kept asking (not described)": 1},
}
MODELLED_LABEL = "scripted managers modelling the reported behaviour, not a real model"


def _reply(content: str = "", calls: Sequence[tuple[str, dict]] = (), reasoning: str | None = None,
           step: int = 0) -> LLMResponse:
    slips = tuple(ToolCall(f"call_{step}_{i}", name, args) for i, (name, args) in enumerate(calls, 1))
    return LLMResponse(AssistantMessage(content, slips), reasoning=reasoning, model="scripted (modelled)")


def _lookups(messages, tools):
    return _reply(calls=[("get_weather", {"city": c}) for c in CITIES], step=1)


def _celsius(messages) -> list[float | int]:
    return [number(r) for r in results(messages, "get_weather")[-2:]]


def _as_fahrenheit(messages, tools):
    paris, tokyo = _celsius(messages)
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F", reasoning=(
        f"Paris returned {paris} and Tokyo returned {tokyo}; going by the tool's result these are "
        "already Fahrenheit, so no conversion is needed."))


def _convert_both(messages, tools):
    return _reply(calls=[("to_fahrenheit", {"celsius": c}) for c in _celsius(messages)], step=2)


def _final_from_tool(messages, tools):
    paris, tokyo = (number(r) for r in results(messages, "to_fahrenheit")[-2:])
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F")


def _own_arithmetic(messages, tools):
    paris, tokyo = (to_fahrenheit(c) for c in _celsius(messages))
    return _reply(f"Paris: {paris}°F, Tokyo: {tokyo}°F", reasoning="Easy enough to convert these myself.")


def _made_up(messages, tools):
    return _reply(calls=[("to_fahrenheit", {"celsius": 10}), ("to_fahrenheit", {"celsius": 5})], step=1)


_SCRIPTS = {
    "celsius as fahrenheit": [_lookups, _as_fahrenheit],
    "right, with to_fahrenheit": [_lookups, _convert_both, _final_from_tool],
    "right, own arithmetic": [_lookups, _own_arithmetic],
    "made up numbers": [_made_up, _final_from_tool],
    "kept asking (not described)": [_lookups] * 100,
}


def modelled_manager(variant: Variant | str, rng: random.Random) -> tuple[str, ScriptedLLM]:
    """Pick one run's behaviour with the reported frequencies; return it and its scripted manager."""
    weights = MODELLED[variant.name if isinstance(variant, Variant) else variant]
    behaviour = rng.choices(list(weights), weights=list(weights.values()))[0]
    return behaviour, ScriptedLLM(_SCRIPTS[behaviour], name=f"scripted (modelled): {behaviour}")


# ----------------------------------------------------------------- running and summarising

@dataclass(frozen=True)
class RunResult:
    """One run: its classification and where to find it (``run_id`` within ``trace``)."""

    variant: str
    run: int
    outcome: str
    case: int | None
    line: int | None
    why: str
    answer: str | None
    celsius_as_fahrenheit: bool
    converted_with_tool: bool
    model: str
    script: str       # the modelled behaviour, or "" for a live model
    trace: str
    run_id: str


@dataclass(frozen=True)
class ExperimentResults:
    runs: tuple[RunResult, ...]
    source: str

    def variants(self) -> list[str]:
        return list(dict.fromkeys(r.variant for r in self.runs))

    def counts(self) -> dict[str, Counter]:
        """``{variant: Counter(outcome -> runs)}``, every outcome present (zeros included)."""
        out = {}
        for v in self.variants():
            out[v] = Counter(dict.fromkeys(OUTCOMES, 0))
            out[v].update(r.outcome for r in self.runs if r.variant == v)
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One dict per run (what ``mingraph_lite.plots.plot_experiment`` and the CSV take)."""
        return [asdict(r) for r in self.runs]

    def table(self) -> str:
        """Counts per variant at a glance, under a line saying where the runs came from."""
        heads = ["get_weather returns", "runs", *OUTCOMES, "said °C as °F", "used to_fahrenheit"]
        body = []
        for v in self.variants():
            mine = [r for r in self.runs if r.variant == v]
            counts = Counter(r.outcome for r in mine)
            body.append([f'"{v}"', len(mine), *(counts[o] for o in OUTCOMES),
                         sum(r.celsius_as_fahrenheit for r in mine),
                         sum(r.converted_with_tool for r in mine)])
        return f"source: {self.source}\n" + _aligned(heads, body)

    def to_csv(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(RunResult)])
            writer.writeheader()
            writer.writerows(self.rows())
        return path


def _aligned(heads: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(heads, *body, strict=True)]
    lines = [heads, *body]
    return "\n".join("  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)
                               for i, (x, w) in enumerate(zip(line, widths, strict=True))) for line in lines)


def reported_table() -> str:
    """The source article's figures, with their source."""
    body = [[f'"{r.variant}"', r.runs, f"{r.right_numbers} / {r.runs}",
             f"{r.celsius_as_fahrenheit} / {r.runs}"] for r in REPORTED]
    table = _aligned(["get_weather returns", "runs", "right numbers", "said °C as °F"], body)
    return f"{REPORTED_SOURCE}\n{table}\n{REPORTED_NOTES}"


def versus_reported(results: ExperimentResults) -> str:
    """The re-run's two headline counts beside the reported ones, per variant."""
    body = []
    for r in REPORTED:
        mine = [x for x in results.runs if x.variant == r.variant]
        right = sum(x.outcome == "right" for x in mine)
        as_f = sum(x.celsius_as_fahrenheit for x in mine)
        body.append([f'"{r.variant}"', f"{r.right_numbers} / {r.runs}", f"{right} / {len(mine)}",
                     f"{r.celsius_as_fahrenheit} / {r.runs}", f"{as_f} / {len(mine)}"])
    heads = ["get_weather returns", "right: reported", "right: this run", "°C as °F: reported",
             "°C as °F: this run"]
    return f"this run: {results.source}\n" + _aligned(heads, body)


def is_live(llm: LLM | None) -> bool:
    """A model that is not scripted (``make_llm()`` gives a ``ScriptedLLM`` unless MINGRAPH_LLM names one)."""
    return llm is not None and not isinstance(llm, ScriptedLLM)


def model_name(llm: LLM) -> str:
    return llm.name


def run_experiment(llm: Any = None, *, trace_dir: str | Path, runs: int = 8, seed: int = 0,
                   variants: Sequence[Variant] = VARIANTS, max_steps: int = 6,
                   progress: bool = True) -> ExperimentResults:
    """``runs`` traced runs per variant, each classified from its trace (one trace file per variant).

    ``llm`` a live model measures it. ``None`` or a scripted model runs ``modelled_manager`` with
    ``seed`` instead, and the results say so. Trace files in ``trace_dir`` are started afresh.
    ``progress`` shows a tqdm bar over the runs (off for tests and plain logs).
    """
    if runs < 1:
        raise ValueError(f"runs is the number of runs per variant and must be >= 1, got {runs!r}")
    live = is_live(llm)
    source = (f"live model {model_name(llm)}, {runs} runs per variant" if live
              else f"{MODELLED_LABEL} (seed {seed}, {runs} runs per variant)")
    bar = _bar(runs * len(variants), progress)
    out: list[RunResult] = []
    try:
        for variant in variants:
            path = Path(trace_dir) / f"{variant.slug}.jsonl"
            path.unlink(missing_ok=True)
            rng = random.Random(f"{seed}:{variant.name}")  # per variant: adding one doesn't shift the other
            for n in range(1, runs + 1):
                script, model = ("", llm) if live else modelled_manager(variant, rng)
                recorder = TraceRecorder(path)
                agent = Agent(model, weather_registry(variant.unit_in_result), SYSTEM_PROMPT,
                              observers=[recorder], max_steps=max_steps)
                try:
                    agent.run({"question": QUESTION})
                except LLMUnavailable:
                    raise  # no server or key: every further run would fail the same way
                except Exception:  # a step limit or failing tool; the trace says which
                    pass
                events = read_trace(path, run=recorder.run_id)
                verdict = classify(events)
                finish = [e for e in events if e.get("event") == "finish"]
                answered = [e.get("model") for e in events if e.get("event") == "model_reply"]
                out.append(RunResult(
                    variant.name, n, verdict.outcome, verdict.case, verdict.line, verdict.why,
                    finish[-1].get("answer") if finish else None, verdict.celsius_as_fahrenheit,
                    verdict.converted_with_tool, str(answered[-1] if answered else "?"), script, path.name,
                    recorder.run_id))
                if bar is not None:
                    bar.set_postfix_str(f'"{variant.name}" run {n}', refresh=False)
                    bar.update()
    finally:
        if bar is not None:
            bar.close()
    return ExperimentResults(tuple(out), source)


def _bar(total: int, progress: bool):
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError as error:
        raise ImportError("the progress bar needs tqdm: pip install tqdm (it comes with pip install "
                          "mingraph-lite), or pass progress=False") from error
    return tqdm(total=total, desc="unit experiment", unit="run")
