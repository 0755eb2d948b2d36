"""The model each experiment run talks to, with the run's seed and temperature.

``scripted`` (the default): a modelled manager picked by the seed. ``ollama:``/``openai:``: an adapter
per run (a server takes parallel runs). ``local[:MODEL]``: loaded once, one run at a time, its seed,
temperature and turn format set before each run. ``refusal`` names a setting a model cannot honour.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..llms.factory import ModelSpec, llm_from_spec, parse_spec
from .modelled import MODELLED_LABEL, MODELLED_ON, cannot_model, modelled_as, modelled_manager

KINDS = ("scripted", "local[:MODEL]", "ollama:MODEL", "openai:MODEL")


@dataclass(frozen=True)
class ModelSource:
    """Where each run's model comes from: ``build(variant, seed) -> (model, script)``."""

    name: str                       # as make_llm spells it: local:gemma3-270m, ollama:qwen3:0.6b, ...
    build: Callable[..., tuple[Any, str]]  # (variant, seed, temperature=None) -> (model, script)
    parallel: bool                  # may several runs call it at once?
    live: bool                      # a real model (False: scripted managers modelling the report)
    temperature: float | None       # what the model really samples with (None: not ours to set)
    note: str = ""                  # how the settings reach the model, said once before the runs

    def refusal(self, variant: Any) -> str | None:
        """Why this model cannot run ``variant`` as defined, in one sentence, or None."""
        if not self.live:
            return cannot_model(variant)
        if variant.turn_format is not None and not self.name.startswith("local:"):
            return (f"variant {variant.name!r} sets turn_format, which only a local model writes itself; "
                    f"{self.name} applies its own chat template")
        if variant.temperature is not None and self.temperature is None:
            return f"variant {variant.name!r} sets temperature, but a model object keeps its own settings"
        return None


def _modelled(variant: Any, seed: int, temperature: float | None = None) -> tuple[Any, str]:
    behaviour, manager = modelled_manager(variant, random.Random(f"{seed}:{getattr(variant, 'name', variant)}"))
    return manager, f"{behaviour} (modelled on {MODELLED_ON[modelled_as(variant)]})"


def _local(spec: ModelSpec, temperature: float, threads: int | None) -> ModelSource:
    from ..llms.local import CHATML, DEFAULT_MODEL, TURNS

    llm: Any = llm_from_spec(spec, temperature=temperature, n_threads=threads)
    own_turns = TURNS.get(spec.argument or DEFAULT_MODEL, CHATML)  # what LocalLLM picks for itself

    def build(variant: Any, seed: int, temp: float | None = None) -> tuple[Any, str]:
        # Read on every call; runs never overlap (parallel=False).
        llm.seed, llm.temperature = seed, temperature if temp is None else temp
        turn = getattr(variant, "turn_format", None)
        llm.turns = TURNS["gemma3-270m" if turn == "gemma" else "smollm2-135m"] if turn else own_turns
        return llm, ""
    return ModelSource(f"local:{spec.argument or DEFAULT_MODEL}", build, parallel=False, live=True,
                       temperature=temperature, note="the local model runs in this process, one run at a time")


def model_source(llm: Any = None, temperature: float = 0.7, threads: int | None = None) -> ModelSource:
    """A spec (``"local:gemma3-270m"``), ``None`` for scripted, or a model object used as it is.
    ``threads`` caps a local model's CPU threads (on a busy machine 1 is fastest)."""
    if llm is not None and not isinstance(llm, str):
        return ModelSource(llm.name, lambda variant, seed, temp=None: (llm, ""), parallel=False, live=True,
                           temperature=None, note="a model object is used with its own settings, one run at a time")
    spec = parse_spec(llm or "scripted")
    if spec.kind == "scripted":
        return ModelSource("scripted (modelled)", _modelled, parallel=True, live=False, temperature=None,
                           note=f"{MODELLED_LABEL}: each run's seed picks its behaviour; temperature is ignored")
    if spec.kind == "local":
        return _local(spec, temperature, threads)
    if spec.kind == "replay":
        raise ValueError(f"an experiment cannot run the model spec {llm!r}: use one of {', '.join(KINDS)}, "
                         "e.g. local:gemma3-270m or ollama:qwen3:0.6b")

    def build(variant: Any, seed: int, temp: float | None = None) -> tuple[Any, str]:
        return llm_from_spec(spec, temperature=temperature if temp is None else temp, seed=seed), ""
    return ModelSource(f"{spec.kind}:{spec.argument}", build, parallel=True, live=True, temperature=temperature,
                       note="each request carries the temperature and the run's seed (OpenAI treats the seed "
                       "as best effort)" if spec.kind == "openai" else "")
