"""The environment check of notebook 00: is every course package here, and can the chosen model answer?

``check_environment()`` returns one ``Check`` row per item: the course packages (read from their
installed metadata, so nothing heavy is imported), the optional extras, the Python version, the
active ``MINGRAPH_LLM`` and whether that model is reachable. With ``MINGRAPH_LLM=scripted`` (the
default) no network call is made at all; for Ollama it is one short HTTP request to the server.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

from mingraph_lite.errors import LLMUnavailable

OK, FAIL, SKIP = "OK", "FAIL", "SKIP"

#: distribution name -> minimum version (as in pyproject.toml); every lesson needs these.
REQUIRED = {"pydantic": "2.6", "jupyterlab": "4.1", "ipywidgets": "8.1", "matplotlib": "3.8",
            "ollama": "0.4", "tqdm": "4.66"}
#: (row name, distribution name, extra that installs it); lessons work without them.
OPTIONAL = (("openai", "openai", "openai"), ("langgraph", "langgraph", "langgraph"),
            ("xllamacpp", "xllamacpp", "local"))
MIN_PYTHON = (3, 10)
OLLAMA_DEFAULT_HOST = "http://localhost:11434"


@dataclass(frozen=True)
class Check:
    """One row of the check: what was checked, ``OK``/``FAIL``/``SKIP``, and the version or the reason."""

    name: str
    status: str
    detail: str

    def __iter__(self) -> Iterator[str]:  # so a row unpacks: name, status, detail = row
        return iter((self.name, self.status, self.detail))


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit()) if piece[:1].isdigit() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def check_package(dist: str, minimum: str | None = None, *,
                  version_of: Callable[[str], str] = metadata.version) -> Check:
    """A required package: ``OK`` with its version, or ``FAIL`` naming the fix."""
    try:
        version = version_of(dist)
    except metadata.PackageNotFoundError:
        return Check(dist, FAIL, "not installed: run `make setup` (or pip install -e .)")
    if minimum and _version_tuple(version) < _version_tuple(minimum):
        return Check(dist, FAIL, f"{version} installed, the course needs >= {minimum}: pip install -U {dist}")
    return Check(dist, OK, version)


def check_optional(name: str, dist: str, extra: str, *,
                   version_of: Callable[[str], str] = metadata.version) -> Check:
    """An optional package: its version, or ``SKIP`` with the pip command (never ``FAIL``)."""
    try:
        return Check(name, OK, version_of(dist))
    except metadata.PackageNotFoundError:
        return Check(name, SKIP, f"not installed (optional: pip install 'mingraph-lite[{extra}]')")


def check_python(version: Sequence[int] | None = None) -> Check:
    version = tuple(version or sys.version_info[:3])
    text = ".".join(str(v) for v in version)
    if version[:2] < MIN_PYTHON:
        return Check("python", FAIL, f"{text}, the course needs >= {MIN_PYTHON[0]}.{MIN_PYTHON[1]}")
    return Check("python", OK, text)


def _http_get_json(url: str, timeout: float) -> object:
    with urllib.request.urlopen(url, timeout=timeout) as reply:  # noqa: S310 - a local server URL
        return json.loads(reply.read().decode("utf-8"))


def _ollama_host(env: Mapping[str, str]) -> str:
    host = (env.get("OLLAMA_HOST") or OLLAMA_DEFAULT_HOST).strip().rstrip("/")
    if "://" not in host:  # `ollama serve` accepts OLLAMA_HOST=0.0.0.0:11434
        host = "http://" + host
    return host


def _check_ollama(model: str, env: Mapping[str, str], timeout: float,
                  http_get: Callable[[str, float], object]) -> Check:
    host = _ollama_host(env)
    try:
        tags = http_get(f"{host}/api/tags", timeout)
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"; the reason is shown
        return Check("live model", FAIL, f"no Ollama server answers at {host} ({type(exc).__name__}): "
                                         f"start it with `ollama serve`")
    pulled = {m.get("name") or m.get("model") for m in (tags or {}).get("models", [])
              if isinstance(m, Mapping)} if isinstance(tags, Mapping) else set()
    # Ollama lists "qwen3:0.6b"; a spec without a tag means ":latest".
    wanted = model if ":" in model else f"{model}:latest"
    if wanted in pulled or model in pulled:
        return Check("live model", OK, f"Ollama at {host} has {model}")
    return Check("live model", FAIL, f"Ollama at {host} answers but has no {model}: `ollama pull {model}`")


def _check_local(model: str) -> Check:
    if find_spec("xllamacpp") is None:
        return Check("live model", FAIL, "the xllamacpp runtime is missing: pip install 'mingraph-lite[local]'")
    from mingraph_lite.llms.local import find_gguf

    try:
        path = find_gguf(model or "smollm2-135m")
    except (LLMUnavailable, ValueError) as exc:
        return Check("live model", FAIL, str(exc))
    return Check("live model", OK, f"GGUF file found: {path.name}")


def check_model(env: Mapping[str, str] | None = None, *, timeout: float = 1.0,
                http_get: Callable[[str, float], object] = _http_get_json) -> list[Check]:
    """Two rows: the active ``MINGRAPH_LLM`` spec, and whether that model can answer.

    Never touches the network unless the spec names Ollama (one GET of ``/api/tags``, ``timeout`` s).
    """
    from mingraph_lite.llms import guard
    from mingraph_lite.llms.factory import ENV, FORMS

    env = os.environ if env is None else env
    raw = (env.get(ENV) or "").strip()
    spec = raw or "scripted"
    kind, _, rest = spec.partition(":")
    kind = kind.lower()
    shown = spec if raw else "scripted (the default)"
    if kind == "scripted" and not rest:
        return [Check(ENV, OK, shown), Check("live model", OK, "scripted, no live model needed")]
    if kind == "ollama" and rest:
        if env.get(guard.ENV, "on").strip().lower() in {"off", "0", "false", "no"}:
            reach = Check("live model", SKIP, f"not checked: {guard.ENV}={env.get(guard.ENV)} (a test run)")
        else:
            reach = _check_ollama(rest, env, timeout, http_get)
    elif kind == "openai" and rest:
        from mingraph_lite.llms.openai import KEY_VAR

        if env.get(KEY_VAR, "").strip():
            reach = Check("live model", OK, f"{KEY_VAR} is set (not sent anywhere by this check)")
        else:
            reach = Check("live model", FAIL, f"{KEY_VAR} is not set: export {KEY_VAR}=... before `make lab`")
    elif kind == "local":
        reach = _check_local(rest)
    elif kind == "replay" and rest:
        if Path(rest).expanduser().is_file():
            reach = Check("live model", OK, "replays a recorded trace, no live model needed")
        else:
            reach = Check("live model", FAIL, f"no trace file at {rest}")
    else:
        return [Check(ENV, FAIL, f"unknown model spec {spec!r}; valid forms: {', '.join(FORMS)}")]
    return [Check(ENV, OK, shown), reach]


def check_environment(env: Mapping[str, str] | None = None, *, timeout: float = 1.0,
                      http_get: Callable[[str, float], object] = _http_get_json,
                      version_of: Callable[[str], str] = metadata.version) -> list[Check]:
    """Every row of notebook 00's check, in reading order."""
    rows = [check_python()]
    rows += [check_package(dist, minimum, version_of=version_of) for dist, minimum in REQUIRED.items()]
    rows += [check_optional(name, dist, extra, version_of=version_of) for name, dist, extra in OPTIONAL]
    rows += check_model(env, timeout=timeout, http_get=http_get)
    return rows


def format_table(rows: Sequence[Sequence[str]] | Sequence[Check]) -> str:
    """Aligned plain text, one row per line, readable at a glance in a notebook or a terminal."""
    rows = [tuple(row) for row in rows]
    if not rows:
        return "(nothing checked)"
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [str(cell).ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, str(row[-1])]).rstrip())
    return "\n".join(lines)
