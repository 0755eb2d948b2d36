"""The one grammar of a model spec (``MINGRAPH_LLM``), and the one place an adapter is built from it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .base import LLM

ENV = "MINGRAPH_LLM"
FORMS = ("scripted", "ollama:MODEL", "openai:MODEL", "local[:MODEL]", "replay:PATH")
_NEEDS_ARGUMENT = frozenset({"ollama", "openai", "replay"})


@dataclass(frozen=True)
class ModelSpec:
    """``kind``, what follows the first colon, the ``text`` as written, and whether nothing was written."""

    kind: str
    argument: str
    text: str
    is_default: bool = False


def parse_spec(spec: str | None = None, env: Mapping[str, str] | None = None) -> ModelSpec:
    """Read ``spec``, or ``$MINGRAPH_LLM`` from ``env`` (default ``os.environ``); empty means scripted."""
    source = "make_llm" if spec is not None else f"${ENV}"
    raw = spec if spec is not None else (os.environ if env is None else env).get(ENV, "")
    text = raw.strip() or "scripted"
    kind, _, argument = text.partition(":")
    kind = kind.lower()
    if not ((kind == "scripted" and not argument) or kind == "local" or (kind in _NEEDS_ARGUMENT and argument)):
        raise ValueError(f"unknown model spec {text!r} (given to {source}); "
                         f"valid forms: {', '.join(FORMS)}, e.g. ollama:qwen3:0.6b or local")
    return ModelSpec(kind, argument, text, is_default=not raw.strip())


def llm_from_spec(spec: ModelSpec, *, scripted: Callable[[], LLM] | None = None,
                  temperature: float | None = None, seed: int | None = None, n_threads: int | None = None) -> LLM:
    """The adapter ``spec`` names; ``temperature`` and ``seed`` (None: the adapter's default) reach real models only."""
    sampling = {"temperature": temperature, "seed": seed}
    if spec.kind == "scripted":
        if scripted is None:
            raise ValueError("a scripted spec needs scripted=... : the scripted model to build")
        return scripted()
    if spec.kind == "ollama":
        from .ollama import OllamaLLM
        return OllamaLLM(spec.argument, **sampling)
    if spec.kind == "openai":
        from .openai import OpenAILLM
        return OpenAILLM(spec.argument, **sampling)
    if spec.kind == "local":
        from .local import DEFAULT_MODEL, LocalLLM
        return LocalLLM(spec.argument or DEFAULT_MODEL, n_threads=n_threads, **sampling)
    from .replay import ReplayLLM  # parse_spec lets no other kind through
    return ReplayLLM.from_trace(spec.argument)
