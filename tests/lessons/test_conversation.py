"""The memory comparison conversation: same questions, different folders, honest token counts."""

import pytest

from lessons.conversation import (
    FIRST_CITY,
    QUESTIONS,
    REAL_QUESTIONS,
    ask_all,
    celsius_read,
    cities_in,
    compare_on_active_model,
    conversation_llm,
    current_turn,
    describe_recording,
    replay_conversation,
    run_conversation,
    show_folder,
    summariser_llm,
)
from mingraph_lite import Agent, ScriptedLLM, TraceRecorder, read_trace, word_count
from mingraph_lite.course.scripts import SYSTEM_PROMPT
from mingraph_lite.course.weather import weather_registry
from mingraph_lite.errors import ReplayMismatch
from mingraph_lite.memory import KeepAll, LastN, Summarise
from mingraph_lite.messages import AssistantMessage, SystemMessage, ToolCall, ToolMessage


def test_keep_all_answers_every_question_right():
    run = run_conversation(KeepAll(SYSTEM_PROMPT))
    assert run.answers == ("Paris is 18°C.", "Tokyo is 24°C.", "Cairo is 31°C.",
                           "Tokyo is 75°F and Cairo is 88°F.", "London is 14°C.", "Oslo is 7°C.",
                           "Sydney is 20°C.", "Cairo is the warmest at 31°C.", "Oslo is the coldest at 7°C.",
                           "London is 57°F and Oslo is 45°F.",
                           f"The first city you asked about is {FIRST_CITY}.")
    assert run.remembers_first_city and run.summary_calls == ()
    # a lookup round for each single-city question, a conversion round for each "Convert", none otherwise
    assert [q for q, _, _ in run.agent_calls] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 10, 11]


def test_token_counts_follow_the_word_rule_and_grow_with_the_folder():
    llm = conversation_llm()
    run = run_conversation(KeepAll(SYSTEM_PROMPT), llm=llm)
    first_folder = llm.calls[0][0]
    assert run.agent_calls[0][1] == sum(len(m.content.split()) for m in first_folder)
    inputs = [i for _, i, _ in run.agent_calls]
    assert inputs == sorted(inputs)  # everything is kept, so each call reads more


def test_a_window_forgets_the_start_and_pays_for_lookups_again():
    keep, window = run_conversation(KeepAll(SYSTEM_PROMPT)), run_conversation(LastN(SYSTEM_PROMPT, 8))
    assert not window.remembers_first_city
    assert window.answers[-1] == "The first city you asked about is London."  # confidently wrong
    assert len(window.agent_calls) > len(keep.agent_calls)  # facts scrolled out were fetched again
    assert window.total_tokens < keep.total_tokens


def test_a_window_shorter_than_a_turn_loses_the_question_itself():
    run = run_conversation(LastN(SYSTEM_PROMPT, 4))
    assert "I can't see your question any more: it is no longer in what I was read." in run.answers


def test_summarise_counts_its_own_calls_and_keeps_the_first_city():
    memory = Summarise(SYSTEM_PROMPT, summariser_llm(), keep_last=4, trigger=8)
    run = run_conversation(memory)
    assert len(run.summary_calls) == len(memory.summary_responses) > 0
    assert run.summary_tokens == sum(r.input_tokens + r.output_tokens for r in memory.summary_responses)
    assert run.total_tokens == run.agent_tokens + run.summary_tokens
    assert run.remembers_first_city
    assert memory.summary.startswith(f"The user first asked about {FIRST_CITY}.")
    assert run.agent_tokens < run_conversation(KeepAll(SYSTEM_PROMPT)).agent_tokens


def test_celsius_read_pairs_slips_with_answers_and_reads_text():
    messages = [AssistantMessage("", (ToolCall("a", "get_weather", {"city": "Oslo"}),)),
                ToolMessage("7", "a", name="get_weather"),
                SystemMessage("Summary: Paris is 18°C.")]
    assert celsius_read(messages) == {"Oslo": 7, "Paris": 18}


def test_the_conversation_has_several_questions():
    assert len(QUESTIONS) >= 5

def _recorded(tmp_path, memory):
    """A conversation recorded by TraceRecorder with a scripted model that looks cities up, then answers."""
    def policy(messages, tools):
        if not tools:
            return "The user asked about Paris and Tokyo."
        question, turn = current_turn(messages)
        if not turn and cities_in(question):
            return [("get_weather", {"city": city}) for city in cities_in(question)]
        return f"answer {len(messages)}"

    llm = ScriptedLLM([policy] * 40, name="scripted: recorder test", count_tokens=word_count)
    path = tmp_path / "conversation.jsonl"
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, memory=memory(llm), observers=[TraceRecorder(path)])
    return path, ask_all(agent, REAL_QUESTIONS), llm


def test_a_replayed_conversation_gives_back_the_recorded_answers_and_token_counts(tmp_path):
    path, ends, llm = _recorded(tmp_path, lambda llm: Summarise(SYSTEM_PROMPT, llm, keep_last=2, trigger=4))
    run, replay_ends = replay_conversation(path, "summarise-2-4")
    assert [answer for answer, _ in ends] == list(run.answers) and replay_ends == ["answered"] * 4
    recorded = [e["input_tokens"] for e in read_trace(path) if e["event"] == "model_reply"]
    assert [tokens_in for _, tokens_in, _ in run.agent_calls] == recorded  # the trace's counts, call by call
    assert len(run.summary_calls) == sum(1 for _, tools in llm.calls if not tools) > 0


def test_a_replay_through_another_memory_is_refused(tmp_path):
    path, _, _ = _recorded(tmp_path, lambda llm: KeepAll(SYSTEM_PROMPT))
    with pytest.raises(ReplayMismatch):
        replay_conversation(path, "keep-all", lambda llm: LastN(SYSTEM_PROMPT, 2))


def test_a_question_that_runs_out_of_steps_is_no_answer_and_the_conversation_goes_on():
    llm = ScriptedLLM([[("get_weather", {"city": "Paris"})]] * 2 + ["Tokyo is 24°C."], name="scripted: stuck once")
    agent = Agent(llm, weather_registry(), SYSTEM_PROMPT, max_steps=2)
    assert ask_all(agent, ["Paris?", "Tokyo?"]) == [(None, "step limit"), ("Tokyo is 24°C.", "answered")]


def test_show_folder_prints_each_call_with_its_id_and_each_slip_with_the_call_it_answers(capsys):
    call = ToolCall("c7", "get_weather", {"city": "Oslo"})
    show_folder([SystemMessage("You help."), AssistantMessage("", tool_calls=(call,)),
                 ToolMessage("7", tool_call_id="c7", name="get_weather"), AssistantMessage("x" * 80)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["assistant", "asks", "for", "get_weather{'city':", "'Oslo'}", "[c7]"]
    assert lines[2].split() == ["tool", "answer", "slip", "for", "[c7]:", "7"]
    assert lines[3].endswith("x" * 57 + "...")


def test_describe_recording_prints_and_returns_the_recordings_metadata(capsys):
    about = describe_recording()
    shown = capsys.readouterr().out
    assert about["model"] in shown and about["command"] in shown and all(q in shown for q in REAL_QUESTIONS)
    assert "system_prompt" not in shown  # the settings line leaves the long prompt out


def test_the_live_comparison_only_says_so_on_the_scripted_model(monkeypatch, capsys):
    monkeypatch.delenv("MINGRAPH_LLM", raising=False)
    compare_on_active_model()
    assert capsys.readouterr().out.startswith("active model: scripted;")


def test_the_live_comparison_runs_each_memory_on_a_fresh_model_of_the_spec(monkeypatch, capsys):
    import mingraph_lite.course.scripts as scripts

    made = []

    def make_llm():
        made.append(conversation_llm() if len(made) != 3 else summariser_llm())  # the 4th: Summarise's own
        return made[-1]

    monkeypatch.setenv("MINGRAPH_LLM", "stand-in")
    monkeypatch.setattr(scripts, "make_llm", make_llm)
    compare_on_active_model()
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["KeepAll", "LastN(8)", "Summarise(4,"]
    assert "calls=19 " in lines[0] and "Paris" in lines[0] and "London" in lines[1]
    assert len(made) == 4  # one agent model per memory, and Summarise's own summariser


def test_the_folder_is_read_in_one_line_of_the_agents_loop_and_run_conversation_is_short():
    from lessons.conversation import where_the_folder_is_read

    core, reads = where_the_folder_is_read()
    assert len(core.splitlines()) <= 6 and "Agent(" in core
    assert len(reads) == 1 and "run.llm.generate(run.memory.messages(), run.tools)" in reads[0]
