"""Memory: what the model is read. Windows never split a tool call from its answers."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mingraph_lite.llms.scripted import ScriptedLLM
from mingraph_lite.memory import KeepAll, LastN, Memory, Summarise
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage, UserMessage

PROMPT = "You answer questions about the weather."


@st.composite
def conversations(draw):
    """A conversation as an agent builds it: questions, rounds of tool calls each followed by all their answers,
    final answers; optionally ending mid-round (tool calls asked, only some answered yet)."""
    messages, n = [], 0
    for _ in range(draw(st.integers(1, 4))):
        messages.append(UserMessage(f"question {len(messages)}"))
        for _ in range(draw(st.integers(0, 3))):
            calls = []
            for _ in range(draw(st.integers(1, 3))):
                n += 1
                calls.append(ToolCall(f"call_{n}", "get_weather", {"city": f"city {n}"}))
            messages.append(AssistantMessage(draw(st.sampled_from(["", "let me check"])), tuple(calls)))
            messages += [ToolMessage(f"{c.id} -> 18", c.id, name=c.name) for c in calls]
        messages.append(AssistantMessage(f"answer {len(messages)}"))
    if draw(st.booleans()):  # stop mid-round, as a memory sees it while the agent adds answers
        calls = tuple(ToolCall(f"call_x{i}", "get_weather", {"city": "Paris"}) for i in range(3))
        messages.append(AssistantMessage("", calls))
        messages += [ToolMessage("18", c.id, name=c.name) for c in calls[: draw(st.integers(0, 2))]]
    return messages


def assert_slips_together(window, history):
    """Every answer has its asking message in the window, and every asking message in the window
    has all of its answers that exist so far."""
    asked = {c.id: m for m in window if isinstance(m, AssistantMessage) for c in m.tool_calls}
    answered = {m.tool_call_id for m in window if isinstance(m, ToolMessage)}
    answered_anywhere = {m.tool_call_id for m in history if isinstance(m, ToolMessage)}
    for m in window:
        if isinstance(m, ToolMessage):
            assert m.tool_call_id in asked, f"answer {m.tool_call_id} without its tool call in {window}"
    for call_id in asked:
        if call_id in answered_anywhere:
            assert call_id in answered, f"tool call {call_id} without its answer in {window}"


def fill(memory, history):
    for m in history:
        memory.add(m)
    return memory


def test_memories_follow_the_protocol():
    for memory in (KeepAll(PROMPT), LastN(PROMPT, 3), Summarise(PROMPT, ScriptedLLM([]))):
        assert isinstance(memory, Memory)
        assert memory.messages() == [SystemMessage(PROMPT)]


@settings(deadline=None)  # a busy CI machine must not turn slowness into a failure
@given(conversations())
def test_keep_all_reads_everything_after_the_prompt(history):
    memory = fill(KeepAll(PROMPT), history)
    assert memory.messages() == [SystemMessage(PROMPT), *history]
    assert memory.history == history and len(memory) == len(history)


def test_keep_all_history_is_a_copy():
    memory = fill(KeepAll(PROMPT), [UserMessage("q")])
    memory.history.append(UserMessage("sneaked in"))
    memory.messages().append(UserMessage("sneaked in"))
    assert memory.messages() == [SystemMessage(PROMPT), UserMessage("q")]


@settings(max_examples=200, deadline=None)
@given(conversations(), st.integers(1, 12))
def test_last_n_keeps_the_prompt_a_recent_suffix_and_slips_with_their_answers(history, n):
    memory = LastN(PROMPT, n)
    for i, message in enumerate(history, 1):  # check at every moment of the conversation, not only the end
        memory.add(message)
        read = memory.messages()
        assert read[0] == SystemMessage(PROMPT)
        window = read[1:]
        so_far = history[:i]
        assert window == so_far[len(so_far) - len(window):]  # a suffix: the most recent messages
        assert len(window) >= min(n, len(so_far))  # at least the last n
        assert_slips_together(window, so_far)
        # It grows past n only as far back as the asking message of the tool calls it would split.
        if len(window) > n:
            assert isinstance(window[0], AssistantMessage) and window[0].tool_calls
            assert all(isinstance(m, ToolMessage) for m in window[1:len(window) - n + 1])


def test_last_n_moves_back_to_the_asking_message():
    calls = (ToolCall("a", "get_weather", {"city": "Paris"}), ToolCall("b", "get_weather", {"city": "Tokyo"}))
    history = [UserMessage("q"), AssistantMessage("", calls), ToolMessage("18", "a"), ToolMessage("24", "b")]
    memory = fill(LastN(PROMPT, 1), history)
    assert memory.messages() == [SystemMessage(PROMPT), *history[1:]]
    assert memory.history == history


@pytest.mark.parametrize("n", [0, -1, 1.5, "3", True, False, None])
def test_last_n_needs_a_positive_int(n):
    with pytest.raises(ValueError, match="n as a whole number >= 1"):
        LastN(PROMPT, n)


def summariser():
    """A scripted summariser that writes down how many lines it was asked to condense."""
    def reply(messages, tools):
        assert tools == []
        assert messages[0].role == "system" and messages[1].role == "user"
        return f"summary #{len(llm.calls)} of {len(messages[1].content.splitlines())} lines"
    llm = ScriptedLLM([reply] * 200)
    return llm


@settings(max_examples=150, deadline=None)
@given(conversations(), st.integers(1, 4), st.integers(1, 6))
def test_summarise_keeps_the_prompt_a_summary_and_never_splits_slips(history, keep_last, extra):
    llm = summariser()
    memory = Summarise(PROMPT, llm, keep_last=keep_last, trigger=keep_last + extra)
    for i, message in enumerate(history, 1):
        memory.add(message)
        read = memory.messages()
        assert read[0] == SystemMessage(PROMPT)
        so_far = history[:i]
        if memory.summary is None:
            assert read[1:] == so_far  # nothing condensed yet: word for word
            continue
        assert read[1] == SystemMessage(f"Summary of the conversation so far: {memory.summary}")
        window = read[2:]
        assert window == so_far[len(so_far) - len(window):]
        assert_slips_together(window, so_far)
    assert len(memory.summary_responses) == len(llm.calls)
    assert memory.history == history
    if len(history) > keep_last + extra + 3:  # long enough that something had to be condensed
        assert llm.calls


def test_summarise_condenses_older_turns_with_its_llm():
    llm = ScriptedLLM(["Paris is 18°C, Tokyo is 24°C.", "Paris 18°C, Tokyo 24°C, asked twice."])
    memory = Summarise(PROMPT, llm, keep_last=2, trigger=4)
    paris = ToolCall("c1", "get_weather", {"city": "Paris"})
    history = [UserMessage("Paris weather?"), AssistantMessage("", (paris,)),
               ToolMessage("18", "c1", "get_weather"), AssistantMessage("18°C in Paris."),
               UserMessage("And Tokyo?")]
    fill(memory, history)
    assert len(llm.calls) == 1
    sent, tools = llm.calls[0]
    assert tools == []
    transcript = sent[1].content
    assert "Paris weather?" in transcript and "get_weather" in transcript and "18" in transcript
    assert memory.summary == "Paris is 18°C, Tokyo is 24°C."
    summary = SystemMessage("Summary of the conversation so far: Paris is 18°C, Tokyo is 24°C.")
    assert memory.messages() == [SystemMessage(PROMPT), summary,
                                 AssistantMessage("18°C in Paris."), UserMessage("And Tokyo?")]
    assert memory.history == history  # everything is still kept, only the reading changes

    # The next condensing hands the earlier summary on, so no fact is dropped twice over.
    fill(memory, [AssistantMessage("24°C"), UserMessage("thanks"), AssistantMessage("welcome")])
    assert len(llm.calls) == 2
    assert "Earlier summary: Paris is 18°C, Tokyo is 24°C." in llm.calls[1][0][1].content
    assert memory.summary == "Paris 18°C, Tokyo 24°C, asked twice."


def test_summarise_waits_while_slips_are_unanswered():
    llm = summariser()
    memory = Summarise(PROMPT, llm, keep_last=1, trigger=2)
    calls = (ToolCall("a", "get_weather", {"city": "Paris"}), ToolCall("b", "get_weather", {"city": "Tokyo"}))
    fill(memory, [UserMessage("q"), AssistantMessage("thinking"), AssistantMessage("", calls)])
    assert llm.calls == []  # over the trigger, but the tool calls are waiting for their answers
    memory.add(ToolMessage("18", "a"))
    memory.add(ToolMessage("24", "b"))
    window = memory.messages()[2:]
    assert window[0] == AssistantMessage("", calls)
    assert_slips_together(window, memory.history)


@pytest.mark.parametrize("keep_last, trigger", [(0, 4), (4, 4), (5, 2), (1.5, 8), (True, 8), (2, 8.0), (2, True)])
def test_summarise_checks_its_settings(keep_last, trigger):
    with pytest.raises(ValueError, match="keep_last|trigger"):
        Summarise(PROMPT, ScriptedLLM([]), keep_last=keep_last, trigger=trigger)


def test_the_issue_examples_are_refused_with_the_fix_named():
    with pytest.raises(ValueError, match=r"whole number >= 1 .*LastN\('s', 6\)"):
        LastN("s", True)
    with pytest.raises(ValueError, match=r"whole number >= 1 .*keep_last=4"):
        Summarise(PROMPT, ScriptedLLM([]), keep_last=1.5)


def _filled(summariser, n=5):
    memory = Summarise(PROMPT, summariser, keep_last=1, trigger=2)
    added = [UserMessage("q1"), AssistantMessage("a1"), UserMessage("q2")]
    for message in added[:n]:
        memory.add(message)
    return memory


def _boom(messages, tools):
    raise RuntimeError("summariser down")


@pytest.mark.parametrize("reply, error, match", [
    (_boom, RuntimeError, "summariser down"),
    ("", ValueError, "empty summary"),
    ("   ", ValueError, "empty summary"),
    ([("get_weather", {"city": "Paris"})], ValueError, "asked for tools"),
])
def test_a_failing_summariser_leaves_the_history_whole_and_its_error_surfaces(reply, error, match):
    memory = _filled(ScriptedLLM([reply]), n=2)
    before = memory.messages()
    with pytest.raises(error, match=match):
        memory.add(UserMessage("q2"))  # the third unsummarised message starts a summary
    assert memory.messages() == [*before, UserMessage("q2")]  # nothing cut, the new message kept
    assert memory.summary is None and len(memory.history) == 3


def test_summarise_names_what_its_model_lacks():
    class Nameless:
        def generate(self, messages, tools):
            return "never called"

    with pytest.raises(TypeError, match=r"has no name$"):
        Summarise(PROMPT, Nameless())
    with pytest.raises(TypeError, match=r"has no name and no generate$"):
        Summarise(PROMPT, object())
