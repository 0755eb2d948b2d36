"""Redaction: which environment values are secrets, URL credentials, and that no secret survives."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mingraph_lite.errors import LLMUnavailable, ReplayError
from mingraph_lite.redaction import MASK, is_secret_name, is_secret_value, redact, secret_values

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("name, value, secret", [
    ("OPENAI_API_KEY", "sk-proj-abcdef123456", True),
    ("HF_TOKEN", "hf_AbCdEfGhIjKl", True),
    ("db_password", "correct horse battery", True),   # any case
    ("My_Secret", "s3cr3t-value", True),
    ("GITHUB_TOKEN", "  ghp_0123456789  ", True),      # spaces around do not hide it
    ("MAX_TOKENS", "18", False),                      # a number is a setting
    ("TOKENIZERS_PARALLELISM", "false", False),       # name does not end in TOKEN
    ("FEATURE_TOKEN", "false", False),                # a boolean is a setting
    ("BIG_KEY", "123456789012", False),               # a plain number, however long
    ("RATIO_KEY", "-1.5e10", False),
    ("SHORT_KEY", "abc1234", False),                  # 7 characters: too short to be a key
    ("KEYBOARD", "a-long-layout-name", False),        # KEY must end the name
    ("HOME", "/root/a-long-path", False),
])
def test_which_environment_values_are_secrets(name, value, secret):
    assert (is_secret_name(name) and is_secret_value(value)) is secret
    assert (value.strip() in secret_values({name: value})) is secret


def test_redact_reads_the_environment_at_each_call(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    monkeypatch.setenv("MAX_TOKENS", "18")
    assert redact("key sk-test-0123456789, max 18") == f"key {MASK}, max 18"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-other-9876543210")
    assert redact("key sk-test-0123456789") == "key sk-test-0123456789"  # no longer a secret here


@pytest.mark.parametrize("text, shown", [
    ("no Ollama server answers at http://alice:pa55word@gpu.lab:11434",
     "no Ollama server answers at http://***@gpu.lab:11434"),
    ("https://token@github.com/x/y.git", "https://***@github.com/x/y.git"),
    ("OLLAMA_HOST=alice:pa55word@10.0.0.2:11434", "OLLAMA_HOST=***@10.0.0.2:11434"),
    ("http://localhost:11434/api/chat", "http://localhost:11434/api/chat"),   # nothing to hide
    ("write to bob@example.com", "write to bob@example.com"),                 # an e-mail is not a URL
    ("Paris: 64°F, Tokyo: 75°F", "Paris: 64°F, Tokyo: 75°F"),
])
def test_credentials_in_urls(text, shown):
    assert redact(text, ()) == shown


def test_every_package_error_hides_secrets_in_its_message(monkeypatch):
    monkeypatch.setenv("SERVICE_PASSWORD", "hunter2-but-longer")
    error = LLMUnavailable("login failed for hunter2-but-longer at http://u:p4ss@host")
    assert str(error) == f"login failed for {MASK} at http://{MASK}@host"
    assert "hunter2" not in repr(ReplayError(str(error)))


secrets = st.text(st.characters(codec="utf-8"), min_size=8, max_size=40).filter(
    lambda s: is_secret_value(s) and s == s.strip())


@SETTINGS
@given(keys=st.lists(secrets, min_size=1, max_size=4), filler=st.lists(st.text(max_size=20), max_size=6),
       data=st.data())
def test_no_secret_survives_redaction(keys, filler, data):
    # Secrets pasted anywhere, several times, next to each other or inside each other's text.
    pieces = filler + keys + data.draw(st.lists(st.sampled_from(keys), max_size=4))
    text = "".join(data.draw(st.permutations(pieces)))
    out = redact(text, secret_values({f"K{i}_KEY": k for i, k in enumerate(keys)}))
    assert not any(k in out for k in keys)
    assert redact(out, secret_values({f"K{i}_KEY": k for i, k in enumerate(keys)})) == out  # nothing left to do


@pytest.mark.parametrize("host", ["http://alice:pa55word-2026@gpu.lab:11434", "alice:pa55word-2026@gpu.lab:11434"])
def test_credentials_in_ollama_host_never_reach_the_error_message(monkeypatch, host):
    ollama = pytest.importorskip("ollama")
    import httpx

    from mingraph_lite.llms.ollama import OllamaLLM

    def refuse(request):  # the client's documented test seam: a transport that cannot connect
        raise httpx.ConnectError("Failed to connect to Ollama", request=request)

    unreachable = ollama.Client(host="http://127.0.0.1:9", transport=httpx.MockTransport(refuse))
    monkeypatch.setenv("OLLAMA_HOST", host)
    with pytest.raises(LLMUnavailable) as info:
        OllamaLLM("qwen3:0.6b", client=unreachable).generate([], [])
    assert "pa55word" not in str(info.value) and "pa55word" not in str(info.value.args)
    assert "no Ollama server answers at " in str(info.value) and "***@gpu.lab:11434" in str(info.value)


def test_a_failing_listener_is_logged_without_the_secret_its_error_held(monkeypatch, caplog):
    import logging

    from mingraph_lite.observers.announce import announce

    key = "ghp_listenerLeak0123456"
    monkeypatch.setenv("GITHUB_TOKEN", key)

    class Leaky:
        def on_finish(self, answer, reason):
            raise RuntimeError(f"could not post {answer} with token {key}")

    with caplog.at_level(logging.WARNING):
        announce([Leaky()], "on_finish", "done", "answered")
    [record] = caplog.records
    assert "failed in on_finish" in caplog.text and "could not post done with token ***" in caplog.text
    assert key not in caplog.text and key not in logging.Formatter().format(record)
