"""A class server that never answers: the OpenAI adapter gives up after its stated timeout, in one sentence."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.openai import TIMEOUT, OpenAILLM
from mingraph_lite.messages import UserMessage

openai = pytest.importorskip("openai")


@pytest.fixture
def silent_server():
    """A loopback port that accepts connections and reads requests but never writes a byte back."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    thread.join(timeout=2)
    for conn in held:
        conn.close()
    listener.close()


def test_the_default_timeout_is_stated_and_a_teacher_can_lengthen_it_without_code(monkeypatch):
    monkeypatch.delenv("MINGRAPH_TIMEOUT", raising=False)
    assert OpenAILLM("m").timeout == TIMEOUT == 120.0
    monkeypatch.setenv("MINGRAPH_TIMEOUT", " 300 ")  # what the timeout's own sentence tells a class to export
    assert OpenAILLM("m").timeout == 300.0 and OpenAILLM("m", timeout=5).timeout == 5
    monkeypatch.setenv("MINGRAPH_TIMEOUT", "five minutes")
    with pytest.raises(ValueError, match="MINGRAPH_TIMEOUT='five minutes' is not a number of seconds"):
        OpenAILLM("m")


def test_a_server_that_never_answers_becomes_one_sentence_naming_timeout_and_server(silent_server):
    client = openai.OpenAI(api_key="class", base_url=silent_server, max_retries=0)
    llm = OpenAILLM("smollm2-135m", client=client, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(LLMUnavailable) as caught:
        llm.generate([UserMessage("Say hello.")], [])
    assert time.monotonic() - started < 5  # bounded by the stated timeout, not the client's default 10 minutes
    message = str(caught.value)
    assert "0.5 s" in message and silent_server.rstrip("/") in message and "export MINGRAPH_TIMEOUT=" in message
    assert "\n" not in message


def test_over_a_class_server_the_stated_timeout_is_the_whole_wait(silent_server, monkeypatch):
    # What a laptop in the class exports: no retry, so the student waits the stated timeout once, not three times.
    monkeypatch.setenv("OPENAI_BASE_URL", silent_server)
    monkeypatch.setenv("OPENAI_API_KEY", "class")
    monkeypatch.setenv("MINGRAPH_REAL_MODELS", "on")
    llm = OpenAILLM("gemma3-270m", timeout=0.5)
    started = time.monotonic()
    with pytest.raises(LLMUnavailable, match=r"did not answer within 0\.5 s"):
        llm.generate([UserMessage("Say hello.")], [])
    assert time.monotonic() - started < 1.4  # one attempt: the SDK's two retries (with back-off) would pass 1.5 s
