"""LLM conversation logs as real tools write them, built from the formats' documentation:

- the chat format of OpenAI's fine-tuning guide, with tools
  (https://platform.openai.com/docs/guides/fine-tuning, and Azure OpenAI's "fine-tuning and
  tool calling", https://learn.microsoft.com/azure/ai-services/openai/how-to/fine-tuning-functions):
  `{"messages": [...], "tools": [...]}`, an assistant message with `tool_calls` whose
  `function.arguments` is JSON text, then a `tool` message answering it by `tool_call_id`;
- the Chat Completions API's request and response objects
  (https://platform.openai.com/docs/api-reference/chat/create and .../chat/object): content
  given as a list of text parts, the `developer` role, `user` (an end-user id), a response
  with `choices[0].message`, `refusal`, `finish_reason` and `usage`;
- the Batch API's input and output lines (https://platform.openai.com/docs/guides/batch):
  `{"custom_id", "method", "url", "body"}` in, `{"response": {"status_code", "body"}}` out.

The messy parts real logs have: emoji, a participant `name`, tool results that are JSON,
an assistant turn that is a bare tool call (content null), a name in a tool's arguments, and
people named in messages. Every person here is made up.
"""

from __future__ import annotations

import json
from pathlib import Path

PEOPLE = {
    "tenant": "Greta Lindholm",
    "tenant_email": "greta.lindholm@example.com",
    "tenant_handle": "glindholm",
    "landlord": "Kwame Mensah",
}


def secrets() -> list[str]:
    """What must be found nowhere in a store or bundle made from these samples."""
    return [*PEOPLE.values(), "Lindholm", "Mensah"]


def chat_line() -> dict:
    """A fine-tuning-format conversation with a tool call and its result."""
    return {
        "messages": [
            {"role": "system", "content": "You are the lettings assistant of Birch Homes. 🏠"},
            {
                "role": "user",
                "name": PEOPLE["tenant_handle"],
                "content": f"Hi, I'm {PEOPLE['tenant']} ({PEOPLE['tenant_email']}). When does "
                "my lease end? My landlord is Kwame Mensah.",
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_8fK2xQ",
                        "type": "function",
                        "function": {
                            "name": "find_lease",
                            "arguments": json.dumps({"tenant": PEOPLE["tenant"]}),
                        },
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "call_8fK2xQ",
                "content": json.dumps(
                    {"tenant": PEOPLE["tenant"], "ends": "2025-06-30", "rent": "$1,450.00"}
                ),
            },
            {
                "role": "assistant",
                "content": f"Hello {PEOPLE['tenant'].split()[0]}! Your lease ends on "
                "2025-06-30; the rent is $1,450.00 a month. 👍",
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "find_lease",
                    "description": "Find a tenant's lease",
                    "parameters": {
                        "type": "object",
                        "properties": {"tenant": {"type": "string"}},
                        "required": ["tenant"],
                    },
                },
            }
        ],
        "parallel_tool_calls": False,
    }


def log_line() -> dict:
    """A Chat Completions request and its response, as an API gateway logs them."""
    return {
        "request": {
            "model": "gpt-4o-mini",
            "messages": [
                {"role": "developer", "content": "Answer in one sentence."},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Kwame Mensah wants to raise the rent."},
                        {"type": "text", "text": "How much notice must he give?"},
                    ],
                },
            ],
            "temperature": 0.2,
            "user": "tenant-4471",
        },
        "response": {
            "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
            "object": "chat.completion",
            "created": 1741569952,
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": "He must give two months' written notice.",
                        "refusal": None,
                    },
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 31, "completion_tokens": 9, "total_tokens": 40},
        },
    }


def batch_line() -> dict:
    """A Batch API input line: the request under `body`."""
    return {
        "custom_id": "request-7",
        "method": "POST",
        "url": "/v1/chat/completions",
        "body": {
            "model": "gpt-4o-mini",
            "messages": [
                {"role": "user", "content": "Draft a reminder to Greta Lindholm about rent."}
            ],
        },
    }


def write_jsonl(folder: Path, name: str, records: list[dict]) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def conversations_jsonl(folder: Path) -> Path:
    """One file of all three shapes, one conversation per line."""
    return write_jsonl(folder, "conversations.jsonl", [chat_line(), log_line(), batch_line()])
