"""The environment check of notebook 00: rows, statuses, and no network unless Ollama is asked for."""

from importlib import metadata

import pytest

from mingraph_lite.course import envcheck
from mingraph_lite.course.envcheck import (
    FAIL,
    OK,
    SKIP,
    Check,
    check_environment,
    check_model,
    check_optional,
    check_package,
    check_python,
    format_table,
)


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
    rows = by_name(check_environment({"MINGRAPH_LLM": "scripted"}, http_get=no_network))
    for name in ("python", "pydantic", "jupyterlab", "ipywidgets", "matplotlib", "ollama", "tqdm",
                 "openai", "langgraph", "xllamacpp", "MINGRAPH_LLM", "live model"):
        assert name in rows, name
    assert rows["pydantic"].status == OK  # the package itself depends on it, so it is installed here
    assert all(row.status in (OK, FAIL, SKIP) for row in rows.values())


def test_missing_required_package_fails_with_the_fix():
    row = check_package("tqdm", "4.66", version_of=versions())
    assert row.status == FAIL and "pip install" in row.detail


def test_too_old_required_package_fails():
    row = check_package("pydantic", "2.6", version_of=versions(pydantic="1.10.13"))
    assert row.status == FAIL and "1.10.13" in row.detail and ">= 2.6" in row.detail
    assert check_package("pydantic", "2.6", version_of=versions(pydantic="2.10.0")).status == OK


def test_missing_optional_package_is_not_a_failure():
    row = check_optional("openai", "openai", "openai", version_of=versions())
    assert row == Check("openai", SKIP, "not installed (optional: pip install 'mingraph-lite[openai]')")
    found = check_optional("xllamacpp", "xllamacpp", "local",
                           version_of=versions(xllamacpp="2026.10.11549"))
    assert found == Check("xllamacpp", OK, "2026.10.11549")


def test_python_version_row():
    assert check_python((3, 11, 7)) == Check("python", OK, "3.11.7")
    assert check_python((3, 9, 1)).status == FAIL


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


def test_unknown_spec_fails_and_lists_forms():
    rows = check_model({"MINGRAPH_LLM": "gpt4"}, http_get=no_network)
    assert len(rows) == 1 and rows[0].status == FAIL and "ollama:MODEL" in rows[0].detail


@pytest.mark.parametrize("rows", [[("a", "OK", "1.0"), ("longer name", "FAIL", "why")],
                                  [Check("a", "OK", "1.0"), Check("longer name", "FAIL", "why")]])
def test_format_table_aligns_columns(rows):
    lines = format_table(rows).splitlines()
    assert lines == ["a            OK    1.0", "longer name  FAIL  why"]


def test_format_table_empty():
    assert format_table([]) == "(nothing checked)"
