"""Build the model an experiment runs, with its sampling settings (temperature, seed) applied per run.

``make_llm(spec)`` builds a model with its defaults; an experiment needs each run's seed and the chosen
temperature to reach the model. ``model_source(spec, temperature)`` parses the same spec grammar and
knows, per kind, how to pass them:

- ``local[:MODEL]``: one ``LocalLLM`` loaded once (loading takes seconds); before each run its ``seed``
  and ``temperature`` attributes are set, which it reads on every call. In this process, so one run
  at a time; ``threads`` sets its CPU threads.
- ``ollama:MODEL``: a fresh ``OllamaLLM`` per run with ``options={"seed": ..., "temperature": ...}``;
  the server takes parallel requests.
- ``openai:MODEL``: ``OpenAILLM`` sends no temperature or seed by itself, so a small subclass wraps its
  client to add both to every request (OpenAI itself or any OpenAI-compatible server, e.g. ``serve``).
- ``scripted`` (default): scripted managers modelling the reported behaviour, one picked per run
  by a ``random.Random`` seeded with the run's seed; temperature means nothing to them.
- a model object (from Python): used as it is, its own settings, one run at a time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from ..errors import LLMUnavailable
from ..llms.factory import parse_spec
from .modelled import MODELLED_LABEL, modelled_manager

KINDS = ("scripted", "local[:MODEL]", "ollama:MODEL", "openai:MODEL")


@dataclass(frozen=True)
class ModelSource:
    """Where each run's model comes from: ``build(variant, seed) -> (model, script)``."""

    name: str                       # as make_llm spells it: local:smollm2-135m, ollama:qwen3:0.6b, ...
    build: Callable[[str, int], tuple[Any, str]]
    parallel: bool                  # may several runs call it at once?
    live: bool                      # a real model (False: scripted managers modelling the report)
    temperature: float | None       # what the model really samples with (None: not ours to set)
    note: str = ""                  # how the settings reach the model, said once before the runs


def _scripted(temperature: float | None) -> ModelSource:
    def build(variant: str, seed: int) -> tuple[Any, str]:
        behaviour, manager = modelled_manager(variant, random.Random(f"{seed}:{variant}"))
        return manager, behaviour
    return ModelSource("scripted (modelled)", build, parallel=True, live=False, temperature=None,
                       note=f"{MODELLED_LABEL}: each run's seed picks its behaviour; temperature is ignored")


def _local(model: str, temperature: float, threads: int | None = None) -> ModelSource:
    from ..llms.local import MODELS, LocalLLM

    if model and model not in MODELS and not model.endswith(".gguf"):
        raise ValueError(f"unknown local model {model!r}: use one of {', '.join(sorted(MODELS))} "
                         "or a path to a .gguf file")

    loaded: list[Any] = []
    lock = threading.Lock()

    def build(variant: str, seed: int) -> tuple[Any, str]:
        with lock:
            if not loaded:  # loaded on the first run, so a bad option fails before seconds of loading
                loaded.append(LocalLLM(model or "smollm2-135m", seed=seed, temperature=temperature,
                                       n_threads=threads))
        llm = loaded[0]
        llm.seed, llm.temperature = seed, temperature
        return llm, ""
    return ModelSource(f"local:{model or 'smollm2-135m'}", build, parallel=False, live=True,
                       temperature=temperature, note="the local model runs in this process, one run at a time")


def _ollama(model: str, temperature: float) -> ModelSource:
    from ..llms.ollama import OllamaLLM

    def build(variant: str, seed: int) -> tuple[Any, str]:
        return OllamaLLM(model, options={"seed": seed, "temperature": temperature}), ""
    return ModelSource(f"ollama:{model}", build, parallel=True, live=True, temperature=temperature)


class _SamplingClient:
    """An OpenAI client whose chat completions also ask for one run's temperature and seed."""

    def __init__(self, client: Any, sampling: dict[str, Any]) -> None:
        self._client, self._sampling = client, sampling
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, **request: Any) -> Any:
        try:
            return self._client.chat.completions.create(**request, **self._sampling)
        except Exception as error:  # the provider's BadRequestError; any other error passes through
            if "temperature" in str(error).lower() or "seed" in str(error).lower():
                raise LLMUnavailable(f"{request.get('model')} refuses this temperature or seed ({error}): "
                                     "pass the temperature it accepts, e.g. --temperature 1") from error
            raise


def _openai(model: str, temperature: float) -> ModelSource:
    from ..llms.openai import OpenAILLM

    class SampledOpenAILLM(OpenAILLM):
        """OpenAILLM, plus temperature and seed on every request (it sends neither by itself)."""

        sampling: dict[str, Any] = {}

        def _get_client(self) -> Any:
            return _SamplingClient(super()._get_client(), self.sampling)

    def build(variant: str, seed: int) -> tuple[Any, str]:
        llm = SampledOpenAILLM(model)
        llm.sampling = {"temperature": temperature, "seed": seed}
        return llm, ""
    return ModelSource(f"openai:{model}", build, parallel=True, live=True, temperature=temperature,
                       note="each request carries the temperature and the run's seed (an OpenAI-compatible "
                       "server such as llama.cpp's honours both; OpenAI treats the seed as best effort)")


def model_source(llm: Any = None, temperature: float = 0.7, threads: int | None = None) -> ModelSource:
    """A spec (``"local:gemma3-270m"``), ``None`` for scripted, or a model object used as it is.

    ``threads`` (local models only) caps the CPU threads llama.cpp uses; on a busy machine 1 is much
    faster than all cores, whose threads wait for each other.
    """
    if llm is not None and not isinstance(llm, str):
        return ModelSource(llm.name, lambda variant, seed: (llm, ""), parallel=False, live=True,
                           temperature=None,  # the object's own, which the LLM contract does not tell
                           note="a model object is used with its own settings, one run at a time")
    spec = parse_spec(llm or "scripted")  # the one spec grammar (ValueError naming the valid forms)
    arg = spec.argument
    builders = {"scripted": lambda: _scripted(temperature), "local": lambda: _local(arg, temperature, threads),
                "ollama": lambda: _ollama(arg, temperature), "openai": lambda: _openai(arg, temperature)}
    if spec.kind not in builders:
        raise ValueError(f"an experiment cannot run the model spec {llm!r}: use one of {', '.join(KINDS)}, "
                         "e.g. local:gemma3-270m or ollama:qwen3:0.6b")
    return builders[spec.kind]()
