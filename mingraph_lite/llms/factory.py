"""The one grammar of a model spec (``MINGRAPH_LLM``), and building an adapter from it.

``parse_spec`` reads a spec (or ``$MINGRAPH_LLM``) into a ``ModelSpec``; ``llm_from_spec`` builds
the adapter it names. What ``scripted`` means is not this package's business: the caller hands in
the scripted model to build (the course's ``make_llm`` hands in its default manager). Every adapter
is imported only when its spec is asked for, so a scripted spec needs no client library, server,
key or network.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .base import LLM

ENV = "MINGRAPH_LLM"
FORMS = ("scripted", "ollama:MODEL", "openai:MODEL", "local[:MODEL]", "replay:PATH")
#: kinds whose argument after the colon is required; ``local`` may go without, ``scripted`` takes none
_NEEDS_ARGUMENT = frozenset({"ollama", "openai", "replay"})


@dataclass(frozen=True)
class ModelSpec:
    """A checked spec: ``kind`` (``scripted``, ``ollama``, ...) and what follows the first colon.

    ``text`` is the spec as written; ``is_default`` says that nothing was written (so ``scripted``).
    """

    kind: str
    argument: str
    text: str
    is_default: bool = False


def parse_spec(spec: str | None = None, env: Mapping[str, str] | None = None) -> ModelSpec:
    """Read ``spec``, or ``$MINGRAPH_LLM`` from ``env`` (default ``os.environ``); empty means scripted.

    Raises ``ValueError`` naming the valid forms when the spec fits none of them.
    """
    source = "make_llm" if spec is not None else f"${ENV}"
    raw = spec if spec is not None else (os.environ if env is None else env).get(ENV, "")
    text = raw.strip() or "scripted"
    kind, _, argument = text.partition(":")
    kind = kind.lower()
    valid = ((kind == "scripted" and not argument) or kind == "local"
             or (kind in _NEEDS_ARGUMENT and argument != ""))
    if not valid:
        raise ValueError(f"unknown model spec {text!r} (given to {source}); "
                         f"valid forms: {', '.join(FORMS)}, e.g. ollama:qwen3:0.6b or local:smollm2-135m")
    return ModelSpec(kind, argument, text, is_default=not raw.strip())


def llm_from_spec(spec: ModelSpec, *, scripted: Callable[[], LLM]) -> LLM:
    """The adapter ``spec`` names; ``scripted()`` builds the model for the ``scripted`` kind."""
    if spec.kind == "scripted":
        return scripted()
    if spec.kind == "ollama":
        from .ollama import OllamaLLM
        return OllamaLLM(spec.argument)
    if spec.kind == "openai":
        from .openai import OpenAILLM
        return OpenAILLM(spec.argument)
    if spec.kind == "local":
        from .local import LocalLLM
        return LocalLLM(spec.argument) if spec.argument else LocalLLM()
    from .replay import ReplayLLM  # parse_spec lets no other kind through
    return ReplayLLM.from_trace(spec.argument)
