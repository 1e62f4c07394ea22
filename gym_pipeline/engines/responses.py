"""Translation between Gym's Responses API rows and an OpenAI chat-completions endpoint.

Gym rows carry a Responses API request (`responses_create_params`) and store a
Responses object (`response`); most servers (vLLM, our simulated policy) speak
chat completions. These helpers convert both ways in the shape Gym 0.7.0 writes.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

# The fields Gym 0.7.0 writes for `responses_create_params` in a rollout, in its order.
_REQUEST_DEFAULTS: dict[str, Any] = {
    "background": None, "include": None, "input": None, "instructions": None, "max_output_tokens": None,
    "max_tool_calls": None, "metadata": None, "model": None, "parallel_tool_calls": True,
    "previous_response_id": None, "prompt": None, "reasoning": None, "service_tier": None, "store": None,
    "context_management": None, "conversation": None, "moderation": None, "prompt_cache_key": None,
    "prompt_cache_retention": None, "safety_identifier": None, "stream_options": None, "temperature": None,
    "text": None, "tool_choice": "auto", "tools": [], "top_logprobs": None, "top_p": None, "truncation": None,
    "user": None, "stream": None,
}


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if isinstance(part, dict))


def chat_messages(params: dict[str, Any]) -> list[dict[str, str]]:
    """Chat messages for a Responses request: `instructions` as system, then each input message."""
    messages = []
    if params.get("instructions"):
        messages.append({"role": "system", "content": params["instructions"]})
    items = params.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    for item in items or []:
        if item.get("type", "message") == "message":
            role = "system" if item.get("role") == "developer" else item.get("role", "user")
            messages.append({"role": role, "content": _text_of(item.get("content"))})
    return messages


def chat_request(params: dict[str, Any], model: str, seed: int) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "messages": chat_messages(params), "seed": seed}
    if params.get("temperature") is not None:
        body["temperature"] = params["temperature"]
    if params.get("top_p") is not None:
        body["top_p"] = params["top_p"]
    if params.get("max_output_tokens") is not None:
        body["max_tokens"] = params["max_output_tokens"]
    return body


def expanded_request(params: dict[str, Any]) -> dict[str, Any]:
    """`responses_create_params` as Gym records it in a rollout: every field, defaults filled in."""
    return _REQUEST_DEFAULTS | params


def response_object(completion: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The Responses API object Gym stores for a chat completion."""
    choice = completion["choices"][0]
    text = choice["message"].get("content") or ""
    usage = completion.get("usage") or {}
    cut_off = choice.get("finish_reason") == "length"
    return {
        "id": f"resp_{uuid.uuid4().hex}",
        "created_at": float(completion.get("created") or int(time.time())),
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if cut_off else None,
        "instructions": params.get("instructions"),
        "metadata": None,
        "model": completion.get("model"),
        "object": "response",
        "output": [
            {
                "id": f"msg_{uuid.uuid4().hex}",
                "content": [{"annotations": [], "text": text, "type": "output_text", "logprobs": None}],
                "role": "assistant",
                "status": "incomplete" if cut_off else "completed",
                "type": "message",
                "phase": None,
            }
        ],
        "parallel_tool_calls": True,
        "temperature": params.get("temperature"),
        "tool_choice": "auto",
        "tools": [],
        "top_p": params.get("top_p"),
        "max_output_tokens": params.get("max_output_tokens"),
        "status": "incomplete" if cut_off else "completed",
        "usage": {
            "input_tokens": usage.get("prompt_tokens", 0),
            "input_tokens_details": {"cached_tokens": None},
            "output_tokens": usage.get("completion_tokens", 0),
            "output_tokens_details": {"reasoning_tokens": None},
            "total_tokens": usage.get("total_tokens", 0),
        },
        "user": None,
    }


def output_text(response: dict[str, Any]) -> str:
    """The assistant's text in a Responses object (what a verifier reads)."""
    return "".join(
        part.get("text", "")
        for item in response.get("output") or []
        if item.get("type") == "message"
        for part in item.get("content") or []
        if part.get("type") == "output_text"
    )
