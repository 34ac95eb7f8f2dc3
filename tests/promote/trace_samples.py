"""Trace exports as the tracing tools write them, built from their documentation:

- OTLP JSON (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding: hex ids,
  lowerCamelCase members, 64-bit integers as strings, `{"stringValue": ...}` attribute
  values) with the GenAI semantic conventions
  (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/, the message schemas
  gen-ai-input-messages.json and gen-ai-output-messages.json: `parts` of type text,
  tool_call, tool_call_response, reasoning), the v1.36.0 events (`gen_ai.user.message`,
  `gen_ai.choice`, https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-events/), the
  older `gen_ai.content.prompt` / `gen_ai.content.completion` events, and a
  `gen_ai.evaluation.result` event;
- a Langfuse trace as `GET /api/public/traces/{id}` returns it (TraceWithFullDetails in
  https://cloud.langfuse.com/generated/api/openapi.yml: observations of type SPAN and
  GENERATION with level and statusMessage, scores NUMERIC, BOOLEAN and CATEGORICAL with
  observationId and comment);
- LangSmith runs (https://docs.smith.langchain.com/reference/data_formats/run_data_format
  and .../feedback_data_format: run_type, trace_id, inputs.messages as serialised LangChain
  messages, outputs.generations, error, feedback with key, score, comment);
- OpenAI request/response logs (the Chat Completions request and response objects, and the
  API's error object, https://platform.openai.com/docs/api-reference/chat).

The messy parts: spans that are no model call (HTTP, a chain), a reasoning part, tool calls
and results, a healthy call beside the failed ones, emoji, and people named in messages.
Every person here is made up.
"""

from __future__ import annotations

import json
from pathlib import Path

TENANT, LANDLORD, AGENT = "Greta Lindholm", "Kwame Mensah", "Ingrid Solberg"
START = 1_741_569_952_000_000_000  # 2025-03-10T01:25:52Z in nanoseconds


def secrets() -> list[str]:
    return [TENANT, LANDLORD, AGENT, "Lindholm", "Mensah", "Solberg"]


def _s(value: str) -> dict:
    return {"stringValue": value}


def _attrs(**values) -> list[dict]:
    return [
        {"key": key.replace("__", "."), "value": _s(v) if isinstance(v, str) else v}
        for key, v in values.items()
    ]


def otlp_export() -> dict:
    """One ExportTraceServiceRequest: an HTTP span, a failed chat span (current conventions),
    a chat span scored low (v1.36 events), a healthy one (oldest events)."""
    failed = {
        "traceId": "5b8efff798038103d269b633813fc60c",
        "spanId": "eee19b7ec3c1b174",
        "parentSpanId": "eee19b7ec3c1b173",
        "name": "chat gpt-4o",
        "kind": 3,
        "startTimeUnixNano": str(START),
        "endTimeUnixNano": str(START + 900_000_000),
        "attributes": _attrs(
            gen_ai__operation__name="chat",
            gen_ai__provider__name="openai",
            gen_ai__request__model="gpt-4o",
            gen_ai__response__model="gpt-4o-2024-08-06",
            gen_ai__system_instructions=json.dumps(
                [{"type": "text", "content": "You answer tenants of Birch Homes. 🏠"}]
            ),
            gen_ai__input__messages=json.dumps(
                [
                    {
                        "role": "user",
                        "parts": [
                            {"type": "text", "content": f"I'm {TENANT}. Is my deposit back?"}
                        ],
                    },
                    {
                        "role": "assistant",
                        "parts": [
                            {"type": "reasoning", "content": "Look the deposit up."},
                            {
                                "type": "tool_call",
                                "id": "call_VSPygqKTWdrhaFErNvMV18Yl",
                                "name": "deposit_status",
                                "arguments": {"tenant": TENANT},
                            },
                        ],
                    },
                    {
                        "role": "tool",
                        "parts": [
                            {
                                "type": "tool_call_response",
                                "id": "call_VSPygqKTWdrhaFErNvMV18Yl",
                                "response": {"status": "returned", "amount": "$1,450.00"},
                            }
                        ],
                    },
                ]
            ),
            gen_ai__output__messages=json.dumps(
                [
                    {
                        "role": "assistant",
                        "parts": [
                            {"type": "text", "content": f"Yes {TENANT}, $2,000.00 was returned."}
                        ],
                        "finish_reason": "stop",
                    }
                ]
            ),
        ),
        "status": {"code": 2, "message": "answer contradicts the tool result"},
    }
    scored = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "chat gpt-4o-mini",
        "startTimeUnixNano": str(START + 60_000_000_000),
        "attributes": _attrs(gen_ai__operation__name="chat", gen_ai__request__model="gpt-4o-mini"),
        "events": [
            {
                "name": "gen_ai.system.message",
                "timeUnixNano": str(START + 60_000_000_000),
                "attributes": _attrs(content="Be brief."),
            },
            {
                "name": "gen_ai.user.message",
                "attributes": _attrs(content=f"Tell {LANDLORD} the boiler is broken again."),
            },
            {
                "name": "gen_ai.choice",
                "attributes": _attrs(
                    message=json.dumps({"role": "assistant", "content": "Done! 👍"}),
                    finish_reason="stop",
                ),
            },
            {
                "name": "gen_ai.evaluation.result",
                "attributes": _attrs(
                    gen_ai__evaluation__name="helpfulness",
                    gen_ai__evaluation__score__value={"doubleValue": 0.2},
                    gen_ai__evaluation__explanation=f"Claims to have told {LANDLORD}; "
                    "no message was sent.",
                ),
            },
        ],
        "status": {"code": 1},
    }
    healthy = {
        "traceId": "4bf92f3577b34da6a3ce929d0e0e4736",
        "spanId": "00f067aa0ba902b7",
        "name": "chat",
        "startTimeUnixNano": str(START + 120_000_000_000),
        "attributes": _attrs(gen_ai__system="openai", gen_ai__request__model="gpt-3.5-turbo"),
        "events": [
            {
                "name": "gen_ai.content.prompt",
                "attributes": _attrs(
                    gen_ai__prompt=json.dumps(
                        [{"role": "user", "content": "When is rent due at Birch Homes?"}]
                    )
                ),
            },
            {
                "name": "gen_ai.content.completion",
                "attributes": _attrs(
                    gen_ai__completion=json.dumps(
                        [{"role": "assistant", "content": "On the 1st of each month."}]
                    )
                ),
            },
        ],
        "status": {},
    }
    http = {
        "traceId": "5b8efff798038103d269b633813fc60c",
        "spanId": "eee19b7ec3c1b173",
        "name": "POST /v1/chat/completions",
        "startTimeUnixNano": str(START),
        "attributes": _attrs(http__request__method="POST", url__full="https://api.openai.com/v1"),
        "status": {"code": 2, "message": "upstream 500"},
    }
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _attrs(service__name="lettings-bot")},
                "scopeSpans": [
                    {
                        "scope": {"name": "opentelemetry.instrumentation.openai_v2"},
                        "spans": [http, failed, scored, healthy],
                    }
                ],
            }
        ]
    }


def langfuse_traces() -> dict:
    """An API page of two traces: one scored low (on its generation and as a whole), one fine."""
    low = {
        "id": "trace-lf-7d1c",
        "timestamp": "2025-03-10T09:00:00.000Z",
        "name": "lettings-chat",
        "userId": "tenant-4471",
        "observations": [
            {
                "id": "obs-span-1",
                "traceId": "trace-lf-7d1c",
                "type": "SPAN",
                "name": "retrieve",
                "startTime": "2025-03-10T09:00:00.010Z",
                "level": "DEFAULT",
            },
            {
                "id": "obs-gen-2",
                "traceId": "trace-lf-7d1c",
                "type": "GENERATION",
                "name": "answer",
                "startTime": "2025-03-10T09:00:00.200Z",
                "model": "gpt-4o-mini",
                "input": [
                    {"role": "system", "content": "You help tenants."},
                    {"role": "user", "content": f"{AGENT} said my lease renews itself. True?"},
                ],
                "output": {"role": "assistant", "content": "Yes, every lease renews itself."},
                "level": "DEFAULT",
                "usage": {"input": 20, "output": 8, "unit": "TOKENS"},
            },
        ],
        "scores": [
            {
                "id": "score-1",
                "traceId": "trace-lf-7d1c",
                "observationId": "obs-gen-2",
                "name": "correctness",
                "value": 0.1,
                "dataType": "NUMERIC",
                "source": "ANNOTATION",
                "comment": f"Leases do not renew themselves; {AGENT} was misquoted.",
            },
            {
                "id": "score-2",
                "traceId": "trace-lf-7d1c",
                "observationId": None,
                "name": "user-feedback",
                "value": 0,
                "dataType": "BOOLEAN",
                "source": "API",
            },
        ],
    }
    fine = {
        "id": "trace-lf-9a0e",
        "timestamp": "2025-03-10T10:00:00.000Z",
        "observations": [
            {
                "id": "obs-gen-9",
                "traceId": "trace-lf-9a0e",
                "type": "GENERATION",
                "startTime": "2025-03-10T10:00:00.100Z",
                "model": "gpt-4o-mini",
                "input": {"messages": [{"role": "user", "content": "Is parking included?"}]},
                "output": "Parking is not included in the rent.",
                "level": "DEFAULT",
            }
        ],
        "scores": [
            {
                "id": "score-9",
                "traceId": "trace-lf-9a0e",
                "observationId": "obs-gen-9",
                "name": "tone",
                "stringValue": "friendly",
                "dataType": "CATEGORICAL",
            }
        ],
    }
    return {"data": [low, fine], "meta": {"page": 1, "limit": 50, "totalItems": 2}}


def _lc(kind: str, content: str, **extra) -> dict:
    return {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "schema", "messages", kind],
        "kwargs": {"content": content, **extra},
    }


def langsmith_runs() -> list[dict]:
    """A chain run (no model call), an llm run with thumbs-down feedback, a failed llm run."""
    chain = {
        "id": "a1b2c3d4-0000-4000-8000-000000000001",
        "name": "RunnableSequence",
        "run_type": "chain",
        "trace_id": "a1b2c3d4-0000-4000-8000-000000000001",
        "start_time": "2025-03-10T11:00:00.000000",
        "inputs": {"question": "rent"},
        "outputs": {"output": "..."},
        "error": None,
        "status": "success",
    }
    thumbs_down = {
        "id": "a1b2c3d4-0000-4000-8000-000000000002",
        "name": "ChatOpenAI",
        "run_type": "llm",
        "trace_id": "a1b2c3d4-0000-4000-8000-000000000001",
        "parent_run_id": "a1b2c3d4-0000-4000-8000-000000000001",
        "start_time": "2025-03-10T11:00:00.500000",
        "inputs": {
            "messages": [
                [
                    _lc("SystemMessage", "You draft letters for Birch Homes."),
                    _lc("HumanMessage", f"Write to {TENANT} that the rent rises by 3%."),
                ]
            ]
        },
        "outputs": {
            "generations": [
                [
                    {
                        "text": f"Dear {TENANT}, your rent rises by 30%.",
                        "message": _lc("AIMessage", f"Dear {TENANT}, your rent rises by 30%."),
                        "generation_info": {"finish_reason": "stop"},
                    }
                ]
            ]
        },
        "error": None,
        "status": "success",
        "extra": {"invocation_params": {"model": "gpt-4o", "temperature": 0.7}},
        "feedback": [
            {
                "id": "fb-1",
                "run_id": "a1b2c3d4-0000-4000-8000-000000000002",
                "key": "thumbs",
                "score": 0,
                "comment": "30% instead of 3%.",
            }
        ],
    }
    failed = {
        "id": "a1b2c3d4-0000-4000-8000-000000000003",
        "name": "ChatOpenAI",
        "run_type": "llm",
        "trace_id": "a1b2c3d4-0000-4000-8000-000000000009",
        "start_time": "2025-03-10T12:00:00.000000",
        "inputs": {"messages": [[{"type": "human", "data": {"content": "Summarise my lease."}}]]},
        "outputs": None,
        "error": "openai.RateLimitError: Error code: 429",
        "status": "error",
        "extra": {"metadata": {"ls_model_name": "gpt-4o"}},
    }
    return [chain, thumbs_down, failed]


def openai_logs() -> list[dict]:
    """A good call, a call that failed (an error instead of a response)."""
    good = {
        "request": {
            "model": "gpt-4o-mini",
            "messages": [{"role": "user", "content": "Is the laundry room open on Sundays?"}],
        },
        "response": {
            "id": "chatcmpl-good1",
            "object": "chat.completion",
            "created": 1741569952,
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "Yes, 8am to 8pm."}}
            ],
        },
    }
    failed = {
        "id": "log-0002",
        "timestamp": "2025-03-10T13:00:00Z",
        "request": {
            "model": "gpt-4o-mini",
            "messages": [
                {"role": "system", "content": "You help tenants."},
                {"role": "user", "content": f"Email {LANDLORD} that my heating failed."},
            ],
        },
        "response": {"status_code": 500, "body": {}},
        "error": {"message": "The server had an error while processing your request.",
                  "type": "server_error"},
    }  # fmt: skip
    return [good, failed]


def write_json(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def write_jsonl(folder: Path, name: str, records: list) -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path
