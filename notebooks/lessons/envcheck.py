"""The environment check of notebook 00: is every course package here, and can the chosen model answer?

``check_environment()`` returns one ``Check`` row per item: the Python version, the course
packages and the optional extras (versions read from installed metadata, so nothing heavy is
imported), the active ``MINGRAPH_LLM`` and whether that model is reachable. What the course needs
is read from its own installed metadata, so ``pyproject.toml`` says it once; the spec is read by
``parse_spec``, the one reader of its grammar. With ``MINGRAPH_LLM=scripted`` (the default) no
network call is made at all; for Ollama it is one short HTTP request to the server.
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

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms import guard
from mingraph_lite.llms.factory import ENV, ModelSpec, parse_spec

OK, FAIL, SKIP = "OK", "FAIL", "SKIP"

PROJECT = "mingraph-lite"
#: the extra the notebooks need (required here), and those a learner may add; "dev" is for contributors
COURSE, EXTRAS = "course", ("langgraph", "local")
OLLAMA_DEFAULT_HOST = "http://localhost:11434"


@dataclass(frozen=True)
class Check:
    """One row of the check: what was checked, ``OK``/``FAIL``/``SKIP``, and the version or the reason."""

    name: str
    status: str
    detail: str

    def __iter__(self) -> Iterator[str]:  # so a row unpacks: name, status, detail = row
        return iter((self.name, self.status, self.detail))


@dataclass(frozen=True)
class Requirements:
    """What the installed course asks for, read from its own metadata (so pyproject.toml says it once)."""

    python: SpecifierSet
    required: tuple[Requirement, ...]
    optional: tuple[tuple[str, Requirement], ...]  # (extra, requirement)

    @classmethod
    def parse(cls, python: str, requires: Sequence[str]) -> Requirements:
        """From the ``Requires-Python`` and ``Requires-Dist`` texts of the metadata."""
        reqs = [Requirement(text) for text in requires]

        def extra(name: str) -> list[Requirement]:
            """The extra's own requirements, with the project's extras it names (``mingraph-lite[plots]``) opened."""
            found = [r for r in reqs if r.marker is not None and "extra" in str(r.marker)
                     and r.marker.evaluate({"extra": name})]
            return [x for r in found for x in ([r] if r.name != PROJECT else
                                                [y for e in sorted(r.extras) for y in extra(e)])]

        required = tuple(r for r in reqs if r.marker is None) + tuple(extra(COURSE))
        optional = tuple((name, r) for name in EXTRAS for r in extra(name))
        return cls(SpecifierSet(python), required, optional)


def installed_requirements(dist: str = PROJECT) -> Requirements | None:
    """The installed course's requirements, or ``None`` when the course itself is not installed."""
    try:
        meta = metadata.metadata(dist)
    except metadata.PackageNotFoundError:
        return None
    return Requirements.parse(meta.get("Requires-Python") or "", meta.get_all("Requires-Dist") or [])


def check_package(requirement: Requirement, *,
                  version_of: Callable[[str], str] = metadata.version) -> Check:
    """A required package: ``OK`` with its version, or ``FAIL`` naming the fix."""
    dist = requirement.name
    try:
        version = version_of(dist)
    except metadata.PackageNotFoundError:
        return Check(dist, FAIL, "not installed: run `make setup` (or pip install -e '.[course]')")
    if not requirement.specifier.contains(version, prereleases=True):
        return Check(dist, FAIL, f"{version} installed, the course needs {requirement.specifier}: "
                                 f"pip install -U '{requirement}'")
    return Check(dist, OK, version)


def check_optional(extra: str, requirement: Requirement, *,
                   version_of: Callable[[str], str] = metadata.version) -> Check:
    """An optional package: its version, or ``SKIP`` with the pip command (never ``FAIL``)."""
    try:
        return Check(requirement.name, OK, version_of(requirement.name))
    except metadata.PackageNotFoundError:
        return Check(requirement.name, SKIP, f"not installed (optional: pip install '{PROJECT}[{extra}]')")


def check_python(python: SpecifierSet, version: Sequence[int] | None = None) -> Check:
    text = ".".join(str(v) for v in (version or sys.version_info[:3]))
    if not python.contains(text, prereleases=True):
        return Check("python", FAIL, f"{text}, the course needs {python}")
    return Check("python", OK, text)


def _http_get_json(url: str, timeout: float) -> object:
    with urllib.request.urlopen(url, timeout=timeout) as reply:  # a local server URL, built above
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
    except Exception as exc:  # any failure means "not reachable"; the reason is shown
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


def _reach(spec: ModelSpec, env: Mapping[str, str], timeout: float,
           http_get: Callable[[str, float], object]) -> Check:
    """Whether the model ``spec`` names can answer, checked as cheaply as possible."""
    if spec.kind == "scripted":
        return Check("live model", OK, "scripted, no live model needed")
    if spec.kind == "ollama":
        if not guard.real_models_allowed(env):
            return Check("live model", SKIP, f"not checked: {guard.ENV}={env.get(guard.ENV)} (a test run)")
        return _check_ollama(spec.argument, env, timeout, http_get)
    if spec.kind == "openai":
        from mingraph_lite.llms.openai import KEY_VAR

        if env.get(KEY_VAR, "").strip():
            return Check("live model", OK, f"{KEY_VAR} is set (not sent anywhere by this check)")
        return Check("live model", FAIL, f"{KEY_VAR} is not set: export {KEY_VAR}=... before `make lab`")
    if spec.kind == "local":
        return _check_local(spec.argument)
    if Path(spec.argument).expanduser().is_file():
        return Check("live model", OK, "replays a recorded trace, no live model needed")
    return Check("live model", FAIL, f"no trace file at {spec.argument}")


def check_model(env: Mapping[str, str] | None = None, *, timeout: float = 1.0,
                http_get: Callable[[str, float], object] = _http_get_json) -> list[Check]:
    """Two rows: the active ``MINGRAPH_LLM`` spec, and whether that model can answer.

    Never touches the network unless the spec names Ollama (one GET of ``/api/tags``, ``timeout`` s).
    """
    env = os.environ if env is None else env
    try:
        spec = parse_spec(env=env)
    except ValueError as error:
        return [Check(ENV, FAIL, str(error))]
    shown = "scripted (the default)" if spec.is_default else spec.text
    return [Check(ENV, OK, shown), _reach(spec, env, timeout, http_get)]


def check_environment(env: Mapping[str, str] | None = None, *, timeout: float = 1.0,
                      http_get: Callable[[str, float], object] = _http_get_json,
                      version_of: Callable[[str], str] = metadata.version,
                      requirements: Requirements | None = None) -> list[Check]:
    """Every row of notebook 00's check, in reading order.

    ``requirements`` defaults to the installed course's own metadata (``installed_requirements()``).
    """
    needs = requirements or installed_requirements()
    if needs is None:
        return [Check(PROJECT, FAIL, "not installed: run `make setup` (or pip install -e '.[course]')"),
                *check_model(env, timeout=timeout, http_get=http_get)]
    rows = [check_python(needs.python)]
    rows += [check_package(requirement, version_of=version_of) for requirement in needs.required]
    rows += [check_optional(extra, requirement, version_of=version_of) for extra, requirement in needs.optional]
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
