"""The environment check of notebook 00: rows, statuses, and no network unless Ollama is asked for."""

from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from lessons import envcheck
from lessons.envcheck import (
    FAIL,
    OK,
    SKIP,
    Check,
    Requirements,
    check_environment,
    check_model,
    check_optional,
    check_package,
    check_python,
    format_table,
    installed_requirements,
)
from mingraph_lite.llms.factory import parse_spec

NEEDS = Requirements.parse(">=3.10", ["pydantic>=2.6", 'tqdm>=4.66; extra == "course"',
                                      'mingraph-lite[openai]; extra == "course"', 'openai>=1.40; extra == "openai"',
                                      'langgraph<1.3,>=1.2; extra == "langgraph"', 'pytest>=8; extra == "dev"'])


def no_network(url, timeout):
    raise AssertionError(f"the check made a network call to {url}")


def versions(**installed):
    def version_of(dist):
        if dist not in installed:
            raise metadata.PackageNotFoundError(dist)
        return installed[dist]
    return version_of


def by_name(rows):
    return {row.name: row for row in rows}


def test_scripted_makes_no_network_call_and_says_so():
    rows = check_model({"MINGRAPH_LLM": "scripted", "MINGRAPH_REAL_MODELS": "on"}, http_get=no_network)
    assert [tuple(r) for r in rows] == [("MINGRAPH_LLM", OK, "scripted"),
                                        ("live model", OK, "scripted, no live model needed")]


def test_unset_spec_means_scripted_default():
    rows = check_model({}, http_get=no_network)
    assert rows[0] == Check("MINGRAPH_LLM", OK, "scripted (the default)")
    assert rows[1].status == OK


def test_full_check_has_every_course_package_python_and_model():
    rows = check_environment({"MINGRAPH_LLM": "scripted"}, http_get=no_network, requirements=NEEDS,
                             version_of=versions(pydantic="2.10.0", tqdm="4.66.1", langgraph="1.2.24"))
    assert [tuple(row) for row in rows][1:] == [
        ("pydantic", OK, "2.10.0"), ("tqdm", OK, "4.66.1"),  # the course extra is required here
        ("openai", FAIL, "not installed: run `make setup` (or pip install -e '.[course]')"),
        ("langgraph", OK, "1.2.24"),  # a dev-only package is not a learner's concern: no row
        ("MINGRAPH_LLM", OK, "scripted"), ("live model", OK, "scripted, no live model needed")]
    assert rows[0].name == "python" and rows[0].status == OK


def _pyproject_metadata() -> list[str]:
    """pyproject.toml's requirements as Requires-Dist lines, as an install writes them."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *(f'{r}; extra == "{name}"'
                                        for name, reqs in project["optional-dependencies"].items() for r in reqs)]


def test_the_course_extra_is_required_and_opens_the_extras_it_names():
    needs = Requirements.parse(">=3.10", _pyproject_metadata())
    required = {r.name for r in needs.required}
    assert {"pydantic", "jupyterlab", "tqdm", "packaging", "ollama", "openai", "ipywidgets", "matplotlib"} <= required
    assert "mingraph-lite" not in required and "pytest" not in required
    assert {extra for extra, _ in needs.optional} == {"langgraph", "local"}


def test_the_requirements_are_read_from_the_installed_metadata():
    needs = installed_requirements()
    assert needs is not None and "pydantic" in {r.name for r in needs.required}  # the test run imports an install
    assert installed_requirements("no-such-distribution-anywhere") is None


def test_an_uninstalled_course_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(envcheck, "installed_requirements", lambda: None)
    rows = check_environment({}, http_get=no_network)
    assert rows[0] == Check("mingraph-lite", FAIL, "not installed: run `make setup` (or pip install -e '.[course]')")


def test_missing_required_package_fails_with_the_fix():
    row = check_package(Requirement("tqdm>=4.66"), version_of=versions())
    assert row.status == FAIL and "pip install" in row.detail


def test_too_old_required_package_fails():
    row = check_package(Requirement("pydantic>=2.6"), version_of=versions(pydantic="1.10.13"))
    assert row.status == FAIL and "1.10.13" in row.detail and ">=2.6" in row.detail
    assert "pip install -U 'pydantic>=2.6'" in row.detail
    assert check_package(Requirement("pydantic>=2.6"), version_of=versions(pydantic="2.10.0")).status == OK


def test_missing_optional_package_is_not_a_failure():
    row = check_optional("openai", Requirement("openai>=1.40"), version_of=versions())
    assert row == Check("openai", SKIP, "not installed (optional: pip install 'mingraph-lite[openai]')")
    found = check_optional("local", Requirement("xllamacpp>=2026.10"), version_of=versions(xllamacpp="2026.11.2"))
    assert found == Check("xllamacpp", OK, "2026.11.2")


def test_python_version_row():
    assert check_python(SpecifierSet(">=3.10"), (3, 11, 7)) == Check("python", OK, "3.11.7")
    old = check_python(SpecifierSet(">=3.10"), (3, 9, 1))
    assert old == Check("python", FAIL, "3.9.1, the course needs >=3.10")


def test_ollama_reachable_with_the_model_pulled():
    seen = []

    def tags(url, timeout):
        seen.append((url, timeout))
        return {"models": [{"name": "qwen3.5:2b"}, {"name": "llama3:latest"}]}

    env = {"MINGRAPH_LLM": "ollama:qwen3.5:2b", "MINGRAPH_REAL_MODELS": "on"}
    rows = check_model(env, http_get=tags)
    assert rows[1].status == OK and "qwen3.5:2b" in rows[1].detail
    assert seen == [("http://localhost:11434/api/tags", 1.0)]
    # a spec without a tag means :latest
    assert check_model({**env, "MINGRAPH_LLM": "ollama:llama3"}, http_get=tags)[1].status == OK


def test_ollama_model_not_pulled_names_the_pull_command():
    env = {"MINGRAPH_LLM": "ollama:qwen3:0.6b", "OLLAMA_HOST": "127.0.0.1:9999"}
    rows = check_model(env, http_get=lambda url, timeout: {"models": []})
    assert rows[1].status == FAIL and "ollama pull qwen3:0.6b" in rows[1].detail


def test_ollama_unreachable_fails_with_host_and_fix():
    def down(url, timeout):
        assert url.startswith("http://127.0.0.1:9999/")
        raise ConnectionRefusedError("refused")

    rows = check_model({"MINGRAPH_LLM": "ollama:qwen3:0.6b", "OLLAMA_HOST": "127.0.0.1:9999"}, http_get=down)
    assert rows[1].status == FAIL
    assert "127.0.0.1:9999" in rows[1].detail and "ollama serve" in rows[1].detail


def test_ollama_not_checked_when_real_models_are_off():
    env = {"MINGRAPH_LLM": "ollama:qwen3:0.6b", "MINGRAPH_REAL_MODELS": "off"}
    rows = check_model(env, http_get=no_network)
    assert rows[1].status == SKIP


def test_openai_key_presence_only():
    with_key = check_model({"MINGRAPH_LLM": "openai:gpt-5-mini", "OPENAI_API_KEY": "sk-test"},
                           http_get=no_network)
    without = check_model({"MINGRAPH_LLM": "openai:gpt-5-mini"}, http_get=no_network)
    assert with_key[1].status == OK and "sk-test" not in with_key[1].detail
    assert without[1].status == FAIL and "OPENAI_API_KEY" in without[1].detail


def test_local_reports_missing_gguf(monkeypatch):
    monkeypatch.setattr(envcheck, "find_spec", lambda name: object())
    rows = check_model({"MINGRAPH_LLM": "local:/nowhere/model.gguf"}, http_get=no_network)
    assert rows[1].status == FAIL and "nowhere" in rows[1].detail


def test_local_finds_a_gguf_path(tmp_path, monkeypatch):
    monkeypatch.setattr(envcheck, "find_spec", lambda name: object())
    weights = tmp_path / "tiny.gguf"
    weights.write_bytes(b"GGUF")
    rows = check_model({"MINGRAPH_LLM": f"local:{weights}"}, http_get=no_network)
    assert rows[1] == Check("live model", OK, "GGUF file found: tiny.gguf")


def test_unknown_spec_fails_with_the_grammar_s_own_message():
    rows = check_model({"MINGRAPH_LLM": "gpt4"}, http_get=no_network)
    with pytest.raises(ValueError) as info:
        parse_spec(env={"MINGRAPH_LLM": "gpt4"})
    assert rows == [Check("MINGRAPH_LLM", FAIL, str(info.value))] and "ollama:MODEL" in rows[0].detail


@pytest.mark.parametrize("rows", [[("a", "OK", "1.0"), ("longer name", "FAIL", "why")],
                                  [Check("a", "OK", "1.0"), Check("longer name", "FAIL", "why")]])
def test_format_table_aligns_columns(rows):
    lines = format_table(rows).splitlines()
    assert lines == ["a            OK    1.0", "longer name  FAIL  why"]


def test_format_table_empty():
    assert format_table([]) == "(nothing checked)"
