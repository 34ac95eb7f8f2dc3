"""Every file curator writes, as pydantic models: the one source of truth.

`schemas/` holds JSON Schemas generated from these models (`python -m curator.schemas`);
a test fails when they drift. Thread content keeps the Mattermost ThreadExport shape,
unknown members included, so a thread exports back as the Go eval loader reads it.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_serializer,
    field_validator,
    model_validator,
)

SCHEMA_VERSION: Final = 1
SHA256_PATTERN = r"^[0-9a-f]{64}$"

FIXTURE_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{8}$"
REVISION_SOURCE_PATTERN = (
    r"^(import-suggestion|manual|promote|labelstudio:[^/\s]+/[^/\s]+|mutation:[a-z0-9-]+)$"
)


class FieldType(StrEnum):
    person = "person"
    organisation = "organisation"
    address = "address"
    date = "date"
    money = "money"
    number = "number"
    text = "text"


class Kind(StrEnum):
    thread = "thread"
    document = "document"
    conversation = "conversation"


class Status(StrEnum):
    draft = "draft"
    needs_review = "needs-review"
    reviewed = "reviewed"
    active = "active"
    retired = "retired"


# Every model's validator is built on its first use, not at import: a command pays only for
# the records it reads (`curator list` never builds the gate's or the bundle's models).
DEFERRED = ConfigDict(defer_build=True)


class Strict(BaseModel):
    """Curator's own records: unknown members are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid", **DEFERRED)


class Open(BaseModel):
    """Records from outside (Mattermost): unknown members are kept as they came."""

    model_config = ConfigDict(extra="allow", **DEFERRED)


# ---------------------------------------------------------------- fixture.json


class Repair(Strict):
    """A person's decision applied to a fixture after it was stored (`curator vault add` or
    `vault forget`): the audit trail of a change the import did not make."""

    action: Literal["vault add", "vault forget"]
    shown: str = Field(description="the added name's pseudonym, or the forgotten word")
    at: str = ""


class Provenance(Strict):
    source_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the raw source")
    source_name: str = Field(description="file name of the raw source, no directories")
    # Left out of the file when unset: fixtures imported before it was recorded keep their
    # bytes, and their bundled thread files the slugged names they had.
    source_name_anonymised: bool | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="a thread's: whether source_name holds pseudonyms, the file name having "
        "held names the vault replaces (true), or is the name as it came (false); a bundle "
        "names the thread's file after it",
    )
    importer: str = Field(description="what made it: mattermost, chat-jsonl, pdf, promote, ...")
    imported_at: str
    trace_id: str | None = None
    # Left out of the file when unset, so fixtures promoted before span ids keep their bytes.
    span_id: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the tracing tool's id of the failing call within its trace (a span, an "
        "observation, a run)",
    )
    vault_id: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{16}$",
        description="fingerprint of the pseudonym vault that anonymised it (never the key)",
    )
    vault_entries: int | None = Field(
        default=None,
        ge=0,
        description="how many originals the vault held when it anonymised this fixture: the "
        "audit judges it against those (a word a later source taught the vault is no name it "
        "could have known)",
    )
    kept: list[str] = Field(
        default_factory=list,
        description="terms the user kept as written (--keep, [anonymise] keep) that occur in "
        "it: a decision, so the audit does not report them",
    )
    kept_hosts: list[str] = Field(
        default_factory=list,
        description="kept hosts ([anonymise] keep_hosts) whose links in it kept their host",
    )
    # Left out of the file when empty, so fixtures nobody repaired keep their bytes.
    repairs: list[Repair] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description="decisions applied to it after import (vault add, vault forget), in order",
    )


class MutationStep(Strict):
    name: str
    params: dict[str, Any] = Field(default_factory=dict)
    seed: int
    measured: dict[str, Any] = Field(
        default_factory=dict, description="what the mutation measured, e.g. the achieved CER"
    )


class Lineage(Strict):
    parent: str = Field(pattern=FIXTURE_ID_PATTERN)
    parent_label_rev: int = Field(ge=1, description="the parent's label revision it was made from")
    mutations: list[MutationStep] = Field(min_length=1)


class KnownBadAnswer(Strict):
    """An output a system really produced that is wrong; bundles carry it so evals can check it."""

    trace_id: str | None = None
    observed_at: str | None = None
    failure_mode: str
    fields: dict[str, Any] = Field(default_factory=dict)
    text: str | None = None


class ReviewState(Strict):
    conflict_fields: list[str] = Field(
        default_factory=list, description="fields annotators disagree on; a lead must settle them"
    )


class Fixture(Strict):
    """fixture.json: what a fixture is, where it came from and where it stands."""

    schema_version: Literal[1] = SCHEMA_VERSION
    id: str = Field(pattern=FIXTURE_ID_PATTERN)
    kind: Kind
    doc_type: str | None = None
    category: str
    status: Status = Status.draft
    tags: list[str] = Field(default_factory=list)
    title: str = ""
    created_at: str
    provenance: Provenance
    lineage: Lineage | None = None
    known_bad: list[KnownBadAnswer] = Field(default_factory=list)
    review: ReviewState = Field(default_factory=ReviewState)
    warnings: list[str] = Field(default_factory=list)

    @property
    def adversarial(self) -> bool:
        return self.lineage is not None or self.provenance.importer == "promote"


# ---------------------------------------------------------------- content.json: documents


class Page(Strict):
    number: int = Field(ge=1)
    text: str
    origin: Literal["text-layer", "ocr"]
    ocr_confidence: float | None = Field(default=None, ge=0, le=100)
    language: str | None = None


# ------------------------------------------------------------ content.json: what every kind shares

Where = tuple[str, int | str]
"""Which text of a content: ("page", page number) of a document, ("post", post id) of a
thread, ("message", message number) of a conversation."""


class Texts(Strict):
    """What every kind of content offers: their texts, each at a `Where`, in reading order."""

    part: ClassVar[
        str
    ]  # what one of its texts is ("page", "post", "message"): the first member of its `Where`s

    @abstractmethod
    def texts(self) -> list[tuple[Where, str]]: ...

    @abstractmethod
    def with_texts(self, new_texts: Mapping[Where, str]) -> Self: ...

    @abstractmethod
    def text_at(self, where: Where) -> str | None: ...

    def full_text(self) -> str:
        """All texts joined by newlines: what near-duplicate checks and scoring read."""
        return "\n".join(text for _, text in self.texts())


class DocumentContent(Texts):
    kind: Literal["document"] = "document"
    pages: list[Page]
    part: ClassVar[str] = "page"

    def page(self, number: int) -> Page:
        return self.pages[number - 1]

    def texts(self) -> list[tuple[Where, str]]:
        """Every page text in reading order (the order of `pages`), each with its place."""
        return [(("page", page.number), page.text) for page in self.pages]

    def with_texts(self, new_texts: Mapping[Where, str]) -> Self:
        """A copy with the pages named in `new_texts` rewritten; other places are ignored."""
        pages = [
            page.model_copy(update={"text": new_texts[("page", page.number)]})
            if ("page", page.number) in new_texts
            else page
            for page in self.pages
        ]
        return self.model_copy(update={"pages": pages})

    def text_at(self, where: Where) -> str | None:
        """The text of ("page", n), the n-th page; None for any other place."""
        kind, number = where
        if kind != "page" or not isinstance(number, int) or not 1 <= number <= len(self.pages):
            return None
        return self.page(number).text


# ---------------------------------------------------------------- content.json: threads


class Post(Open):
    id: str
    create_at: int = 0
    update_at: int = 0
    edit_at: int = 0
    delete_at: int = 0
    user_id: str = ""
    channel_id: str = ""
    root_id: str = ""
    message: str = ""
    type: str = ""
    props: dict[str, Any] = Field(default_factory=dict)
    file_ids: list[str] | None = None
    has_reactions: bool = False
    reply_count: int = 0
    metadata: dict[str, Any] = Field(default_factory=dict)

    def written_at(self) -> str:
        """When it was posted (create_at, epoch milliseconds) in UTC: "2024-01-05 10:02:03 UTC"."""
        from datetime import UTC, datetime

        return datetime.fromtimestamp(self.create_at / 1000, tz=UTC).strftime(
            "%Y-%m-%d %H:%M:%S UTC"
        )


class User(Open):
    id: str
    username: str = ""
    email: str = ""
    nickname: str = ""
    first_name: str = ""
    last_name: str = ""
    position: str = ""
    roles: str = ""
    props: dict[str, Any] = Field(default_factory=dict)
    locale: str = ""


class ThreadExport(Open):
    posts: dict[str, Post]
    channel: dict[str, Any] = Field(default_factory=dict)
    team: dict[str, Any] = Field(default_factory=dict)
    users: dict[str, User] = Field(default_factory=dict)
    file_infos: dict[str, Any] = Field(default_factory=dict)
    files: dict[str, str] = Field(default_factory=dict, description="file id -> base64 bytes")

    @field_validator("posts")
    @classmethod
    def _has_posts(cls, posts: dict[str, Post]) -> dict[str, Post]:
        if not posts:
            raise ValueError("a thread export needs at least one post")
        return posts

    def ordered_posts(self) -> list[Post]:
        """Posts in conversation order: by create_at, ties broken by id for determinism."""
        return sorted(self.posts.values(), key=lambda post: (post.create_at, post.id))

    def author(self, post: Post) -> str:
        """Who wrote a post as the channel shows them: the username, else the user id."""
        user = self.users.get(post.user_id)
        return (user.username if user and user.username else post.user_id) or "?"


class ThreadContent(Texts):
    kind: Literal["thread"] = "thread"
    export: ThreadExport
    orphan_post_ids: list[str] = Field(
        default_factory=list, description="replies whose root fell outside the export window"
    )
    part: ClassVar[str] = "post"

    @field_serializer("export")
    def _as_exported(self, export: ThreadExport) -> dict[str, Any]:
        # Only the members the export had (or curator set): the shape stays Mattermost's.
        return export.model_dump(mode="json", exclude_unset=True)

    def texts(self) -> list[tuple[Where, str]]:
        """Every post message in conversation order (`ordered_posts`), each with its place."""
        return [(("post", post.id), post.message) for post in self.export.ordered_posts()]

    def with_texts(self, new_texts: Mapping[Where, str]) -> Self:
        """A copy with the posts named in `new_texts` rewritten; other places are ignored."""
        posts = {
            post_id: post.model_copy(update={"message": new_texts[("post", post_id)]})
            if ("post", post_id) in new_texts
            else post
            for post_id, post in self.export.posts.items()
        }
        return self.model_copy(update={"export": self.export.model_copy(update={"posts": posts})})

    def text_at(self, where: Where) -> str | None:
        """The message of ("post", id); None for any other place."""
        kind, post_id = where
        post = (
            self.export.posts.get(post_id) if kind == "post" and isinstance(post_id, str) else None
        )
        return None if post is None else post.message


# ---------------------------------------------------------------- content.json: conversations

# Authors of a conversation that are roles, not people: structure, never personal data.
CHAT_ROLES = frozenset({"user", "assistant", "system", "tool"})


class ToolCall(Open):
    """A call the assistant asked for (OpenAI's `tool_calls` item); unknown members are kept.

    `function.arguments` is the JSON text of the arguments, as OpenAI writes it."""

    id: str = ""
    type: str = "function"
    function: dict[str, Any] = Field(default_factory=dict, description="name and arguments")


class Message(Open):
    """One message of a conversation, in OpenAI's chat format; unknown members are kept."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = Field(default=None, description="the text; null for a bare tool call")
    name: str | None = Field(default=None, description="the participant's name, when given")
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = Field(default=None, description="the call a tool result answers")


class ConversationContent(Texts):
    """An LLM conversation: ordered messages with roles (structure) and contents (text)."""

    kind: Literal["conversation"] = "conversation"
    messages: list[Message] = Field(min_length=1)
    model: str | None = Field(default=None, description="the model that answered, when known")
    metadata: dict[str, Any] = Field(default_factory=dict)
    part: ClassVar[str] = "message"

    @field_serializer("messages")
    def _as_written(self, messages: list[Message]) -> list[dict[str, Any]]:
        # Only the members each message had: the shape stays the chat format's.
        return [message.model_dump(mode="json", exclude_unset=True) for message in messages]

    def texts(self) -> list[tuple[Where, str]]:
        """Every message content in order, each at ("message", its 1-based number); a
        message without content (a bare tool call) has no text."""
        return [
            (("message", number), message.content)
            for number, message in enumerate(self.messages, 1)
            if message.content is not None
        ]

    def with_texts(self, new_texts: Mapping[Where, str]) -> Self:
        """A copy with the messages named in `new_texts` rewritten; other places are ignored."""
        messages = [
            message.model_copy(update={"content": new_texts[("message", number)]})
            if ("message", number) in new_texts
            else message
            for number, message in enumerate(self.messages, 1)
        ]
        return self.model_copy(update={"messages": messages})

    def text_at(self, where: Where) -> str | None:
        """The content of ("message", n), the n-th message; None for any other place."""
        kind, number = where
        if kind != "message" or not isinstance(number, int):
            return None
        if not 1 <= number <= len(self.messages):
            return None
        return self.messages[number - 1].content

    def transcript(self) -> str:
        """Each message on a line after its role ("user: ..."); a tool call as
        "assistant called name(arguments)"."""
        out = []
        for message in self.messages:
            if message.content is not None:
                out.append(f"{message.role}: {message.content}")
            for call in message.tool_calls or ():
                name = call.function.get("name", "")
                out.append(f"{message.role} called {name}({call.function.get('arguments', '')})")
        return "\n".join(out)

    def chat(self) -> list[dict[str, Any]]:
        """The messages as a chat API takes them: each one's members as written."""
        return [message.model_dump(mode="json", exclude_unset=True) for message in self.messages]


Content = Annotated[
    DocumentContent | ThreadContent | ConversationContent, Field(discriminator="kind")
]
"""A fixture's content.json, any kind; each has texts(), with_texts(), text_at(),
full_text()."""


class ContentFile(Strict):
    """Wrapper so content.json validates as one model with a discriminated union."""

    content: Content


# ---------------------------------------------------------------- labels.jsonl


class Span(Strict):
    """Evidence: characters [start, end) of a document page, a post's message or a
    conversation message's content."""

    page: int | None = Field(default=None, ge=1)
    post: str | None = None
    # Left out of the file when unset, so spans written before conversations keep their bytes.
    message: int | None = Field(
        default=None, ge=1, exclude_if=lambda value: value is None, description="message number"
    )
    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _where(self) -> Span:
        if sum(place is not None for place in (self.page, self.post, self.message)) != 1:
            raise ValueError("a span names exactly one of page, post or message")
        if self.end < self.start:
            raise ValueError("a span ends before it starts")
        return self

    @classmethod
    def at(cls, where: Where, start: int, end: int) -> Span:
        """Characters [start, end) of the text at `where`."""
        kind, key = where
        return cls.model_validate({kind: key, "start": start, "end": end})

    @property
    def where(self) -> Where:
        """The text it points into."""
        if self.page is not None:
            return ("page", self.page)
        if self.message is not None:
            return ("message", self.message)
        assert self.post is not None  # the validator lets through exactly one of the three
        return ("post", self.post)


class FieldLabel(Strict):
    type: FieldType
    value: str | None = Field(description="the true value; null when expected_absent")
    expected_absent: bool = Field(
        default=False, description="the input lacks this field; a system must not invent it"
    )
    evidence: Span | None = None
    evidence_text: str | None = Field(
        default=None,
        description="the text at the evidence span when it is not the value itself (OCR noise)",
    )
    variants: list[str] = Field(default_factory=list, description="other accepted answers")
    authority: str | None = Field(
        default=None, description="which text is authoritative and why, when sources conflict"
    )
    # These two are left out of the file when unset, so labels written before them keep their bytes.
    no_evidence: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="why the value stands although the content does not show it (label set "
        "--no-evidence)",
    )
    unanswerable: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="why no reader can recover the value from this text (OCR noise on the value); "
        "scoring leaves the field out",
    )

    @model_validator(mode="after")
    def _absent_has_no_value(self) -> FieldLabel:
        if self.expected_absent and self.value is not None:
            raise ValueError("an expected-absent field has no value")
        if not self.expected_absent and self.value is None:
            raise ValueError("a field needs a value unless it is expected_absent")
        if self.value is None and (self.no_evidence or self.unanswerable):
            raise ValueError("only a field with a value can lack evidence or be unanswerable")
        return self


class Rubric(Strict):
    text: str = Field(min_length=1)
    evidence_posts: list[str] = Field(
        default_factory=list, description="ids of the posts the rubric is judged on"
    )


TASK_NAME_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"


class Task(Strict):
    """One thing a system is asked of a fixture's input (a thread's summary, its action
    items), with the truth it is judged on. Mattermost's suites run one thread through
    several prompts, each with its own rubrics: a task is one of those prompts."""

    rubrics: list[Rubric] = Field(default_factory=list)
    reference: str | None = Field(
        default=None,
        min_length=1,
        exclude_if=lambda value: value is None,
        description="a reviewed answer to this task that meets its every rubric",
    )
    fields: list[str] = Field(
        default_factory=list,
        exclude_if=lambda value: not value,
        description="the revision's fields this task asks for (documents)",
    )


class LabelRevision(Strict):
    """One line of labels.jsonl: a revision of the fixture's truth; the last line is current.

    Without `tasks` the fixture has one default task: its rubrics, reference and fields.
    With named tasks each holds its own rubrics and reference and names the fields it asks
    for; the fields themselves stay here (one value per field, whichever task asks).
    """

    rev: int = Field(ge=1)
    time: str
    author: str
    source: str = Field(pattern=REVISION_SOURCE_PATTERN)
    reason: str | None = None
    doc_type: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the doc type this revision gave the fixture (label set --doc-type); left "
        "out when unset",
    )
    fields: dict[str, FieldLabel] = Field(default_factory=dict)
    rubrics: list[Rubric] = Field(default_factory=list)
    locale: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the locale its values were read in (curator.toml's for its doc type), "
        "which scoring reads them in too; left out for en_US",
    )
    # Left out of the file when unset, so revisions without one keep their bytes.
    reference: str | None = Field(
        default=None,
        min_length=1,
        exclude_if=lambda value: value is None,
        description="a reviewed answer that meets every rubric (judge calibration's must-pass "
        "case)",
    )
    tasks: dict[Annotated[str, Field(pattern=TASK_NAME_PATTERN)], Task] = Field(
        default_factory=dict,
        exclude_if=lambda value: not value,
        description="named tasks, each with its own rubrics; left out when the fixture has "
        "only its default task",
    )

    @model_validator(mode="after")
    def _tasks_hold_the_truth(self) -> LabelRevision:
        if not self.tasks:
            return self
        if self.rubrics or self.reference is not None:
            raise ValueError("a revision with named tasks keeps its rubrics in its tasks")
        for name, task in self.tasks.items():
            unknown = [f for f in task.fields if f not in self.fields]
            if unknown:
                raise ValueError(f"task {name}: asks for field {unknown[0]!r}, which has no label")
        return self

    def task_names(self) -> list[str | None]:
        """Its tasks in label order; [None] (the default task) when it names none."""
        return list(self.tasks) if self.tasks else [None]

    def for_task(self, name: str | None) -> LabelRevision:
        """The truth one task is judged on, as a revision without tasks (None: the default)."""
        if name is None and not self.tasks:
            return self
        if name not in self.tasks:
            raise KeyError(name)
        task = self.tasks[name]
        return self.model_copy(
            update={
                "rubrics": list(task.rubrics),
                "reference": task.reference,
                "fields": {field: self.fields[field] for field in task.fields},
                "tasks": {},
            }
        )

    def all_rubrics(self) -> list[Rubric]:
        """Every rubric of every task."""
        return [*self.rubrics, *(r for task in self.tasks.values() for r in task.rubrics)]

    def with_truth_texts(
        self, rubric: Callable[[Rubric], Rubric], text: Callable[[str], str]
    ) -> LabelRevision:
        """A copy with every rubric (`rubric`) and reference answer (`text`) of every task
        rewritten: how anonymisation reaches the truth, whichever task holds it."""
        tasks = {
            name: task.model_copy(
                update={
                    "rubrics": [rubric(r) for r in task.rubrics],
                    "reference": None if task.reference is None else text(task.reference),
                }
            )
            for name, task in self.tasks.items()
        }
        return self.model_copy(
            update={
                "rubrics": [rubric(r) for r in self.rubrics],
                "reference": None if self.reference is None else text(self.reference),
                "tasks": tasks,
            }
        )


def task_truths(labels: LabelRevision | None) -> list[tuple[str | None, LabelRevision | None]]:
    """(task, the truth it is judged on) for each task of a fixture, in label order: one
    (None, labels) for a fixture without named tasks, or without labels."""
    if labels is None:
        return [(None, None)]
    return [(task, labels.for_task(task)) for task in labels.task_names()]


def rubric_item(text: str, task: str | None = None) -> str:
    """How a rubric is named among the items a person decides or disagrees on (a variant's
    `to_review`, a review's conflicts): `rubric: TEXT`, `TASK rubric: TEXT` of a named task."""
    return f"rubric: {text}" if task is None else f"{task} rubric: {text}"


def task_label(fixture_id: str, task: str | None) -> str:
    """A result's name: the fixture id, `fixture/task` for a named task (as Mattermost names
    a test by its suite and prompt)."""
    return fixture_id if task is None else f"{fixture_id}/{task}"


# ---------------------------------------------------------------- helpers

_SLUG_RUN = re.compile(r"[^a-z0-9]+")


def slugify(text: str, max_words: int = 5) -> str:
    words = [w for w in _SLUG_RUN.split(text.lower()) if w][:max_words]
    return "-".join(words) or "fixture"


# ---------------------------------------------------------------- curator.toml


class FieldSpec(Strict):
    """One field of a document type: its type drives comparison, anonymisation and mutation."""

    type: FieldType = Field(description="how values are compared, anonymised and made up")
    labels: list[str] = Field(min_length=1, description="phrases that introduce the field")
    description: str = Field(
        default="", description="what the field holds, shown to labellers in Label Studio"
    )


AMENDMENT_PLACEHOLDERS = ("number", "date", "document_date", "clause", "label", "value")


class DocTypeSpec(Strict):
    """A document type: the fields a document of it holds."""

    description: str = Field(
        default="", description="what documents of this type are, in a few words"
    )
    fields: dict[str, FieldSpec] = Field(min_length=1)
    amendment: str | None = Field(
        default=None,
        description="template of the text that contradicts a field (curator mutate --contradict); "
        "placeholders {number} {date} {document_date} {clause} {label} {value}, {value} required",
    )
    locale: str | None = Field(
        default=None,
        description="the locale its documents are written in, when not the store's (de_DE): how "
        'their ambiguous amounts and dates read ("1.250", "03/04/2024")',
    )

    @field_validator("locale")
    @classmethod
    def _known_locale(cls, locale: str | None) -> str | None:
        from curator.reading import locale_problem

        problem = None if locale is None else locale_problem(locale)
        if problem:
            raise ValueError(problem)
        return locale

    @field_validator("amendment")
    @classmethod
    def _known_placeholders(cls, template: str | None) -> str | None:
        if template is None:
            return None
        from string import Formatter

        try:
            names = [name for _, name, _, _ in Formatter().parse(template) if name is not None]
        except ValueError as error:
            raise ValueError(f"amendment template: {error}") from None
        unknown = sorted(set(names) - set(AMENDMENT_PLACEHOLDERS))
        if unknown:
            raise ValueError(
                f"amendment template: unknown placeholder {{{unknown[0]}}} "
                f"(known: {', '.join(AMENDMENT_PLACEHOLDERS)})"
            )
        if names.count("value") != 1:
            raise ValueError("amendment template: needs {value} exactly once")
        return template


class StoreSettings(Strict):
    """`[store]` in curator.toml: the set itself."""

    name: str = Field(
        default="golden-set",
        description="the set's name, in bundle cards and Label Studio projects",
    )
    locale: str = Field(
        default="en_US",
        description="Faker locale of pseudonyms and made-up values; its language is the card's; "
        'how documents\' ambiguous amounts and dates read ("1.250" is 1250 in de_DE, '
        '"03/04/2024" is 3 April in en_GB) unless their doc type says `locale`',
    )
    categories: list[str] = Field(
        default_factory=list,
        description="the fixture categories allowed (empty: any); validate reports others",
    )
    adversarial_target_share: float = Field(
        default=0.33,
        ge=0,
        le=1,
        description="share of adversarial fixtures `curator stats` measures against",
    )
    dedup_threshold: float = Field(
        default=0.9,
        gt=0,
        le=1,
        description="similarity at which `curator promote` takes a failure for one a fixture "
        "already covers",
    )
    # What a bundle's dataset card (README.md, Hugging Face convention) says about the set.
    description: str = Field(
        default="", description="what the set is for: the card's first paragraph"
    )
    license: str = Field(
        default="unknown",
        pattern=r"^[a-z0-9][a-z0-9.+-]*$",
        description="Hugging Face licence id of the data, e.g. cc-by-4.0, mit, other, unknown",
    )
    task_categories: list[str] = Field(
        default_factory=list, description="Hugging Face task categories, e.g. summarization"
    )


class JudgeSettings(Strict):
    """`[judge]` in curator.toml: the OpenAI-compatible rubric judge. The API key is never
    here: it is read from OPENAI_API_KEY only."""

    model: str | None = Field(default=None, description="the judge model (or --judge-model)")
    base_url: str | None = Field(
        default=None, description="chat-completions server; default $OPENAI_BASE_URL, else OpenAI's"
    )
    timeout: float = Field(
        default=60.0,
        gt=0,
        description="seconds one judge call may take in all: connect, send, wait and read",
    )
    max_retries: int = Field(default=3, ge=0, description="retries on 429, 5xx and network errors")
    verdict_budget: float = Field(
        default=300.0,
        gt=0,
        description="seconds one verdict may take, every retry and the waits between them included",
    )
    max_reply_bytes: int = Field(
        default=1024 * 1024,
        ge=1024,
        description="the largest judge reply read (a larger one is a judge error) and the "
        "largest system answer recorded (a larger one is a system error)",
    )
    backoff: float = Field(
        default=1.0, ge=0, description="seconds before the first retry; doubles each time"
    )
    concurrency: int = Field(default=4, ge=1, description="judge calls in flight at once")
    json_mode: bool = Field(default=True, description="ask for response_format json_object")
    threshold: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="a verdict passes when it says pass and scores at least this",
    )
    evidence_min_words: int = Field(
        default=3,
        ge=1,
        description="a verdict's evidence counts when each part of its quote has at least this "
        "many words, or evidence_min_chars characters, and is found in the fixture or the output",
    )
    evidence_min_chars: int = Field(
        default=12, ge=1, description="or at least this many characters (spacing collapsed)"
    )


MIB: Final = 1024 * 1024


class LimitSettings(Strict):
    """`[limits]` in curator.toml: how big an input may be before curator refuses it (one
    line, exit 2) or, for OCR pages, shrinks it. Checked before the memory is spent, so a
    hostile file fails fast. Defaults import every real file we know of."""

    max_file_mb: int = Field(
        default=256, ge=1, description="any one input file: PDF, image, JSON, JSONL"
    )
    max_json_mb: int = Field(
        default=32,
        ge=1,
        description="one JSON or JSONL input (thread export, chat log, failure records, "
        "predictions, eval run); a JSON file curator wrote (store, bundle) may be 4 times as "
        "large",
    )
    max_json_depth: int = Field(
        default=64,
        ge=2,
        le=128,
        description="nesting of objects and arrays in JSON inputs (at most 128: the store's own "
        "files nest inputs a few levels deeper, and pydantic reads no deeper than 200)",
    )
    max_json_values: int = Field(
        default=1_000_000,
        ge=1000,
        description="values (objects, arrays, strings, numbers) in one JSON or JSONL input: "
        "what its memory grows with (real exports hold 30,000 to 45,000 a MB)",
    )
    max_json_number_digits: int = Field(
        default=100,
        ge=20,
        le=4000,
        description="digits (and signs, dots, exponents) of one JSON number",
    )
    max_pages: int = Field(
        default=5000, ge=1, description="pages of one PDF, frames of one image file"
    )
    max_page_pixels: int = Field(
        default=36_000_000,
        ge=1_000_000,
        description="a page rendered for OCR above it is downscaled to fit (300 dpi A4 is 8.7 "
        "million)",
    )
    max_image_mb: int = Field(
        default=512,
        ge=16,
        description="memory one image may take decoded (width x height x bytes per pixel): a page "
        "of an image file, or an image on a PDF page that is OCRed",
    )
    max_bundle_file_mb: int = Field(
        default=2048, ge=1, description="one file inside a bundle archive"
    )
    max_bundle_mb: int = Field(
        default=8192, ge=1, description="all files of a bundle archive together"
    )
    max_compression_ratio: int = Field(
        default=200,
        ge=10,
        description="uncompressed / compressed size of a bundle archive, checked while it is read",
    )

    @property
    def file_bytes(self) -> int:
        return self.max_file_mb * MIB

    @property
    def json_bytes(self) -> int:
        return self.max_json_mb * MIB

    def for_curator_files(self) -> LimitSettings:
        """The limits for JSON that curator wrote (store files, bundle files): a fixture holds
        its input and more (labels, a bundle line's metadata), nested a few levels deeper."""
        return self.model_copy(
            update={
                "max_json_mb": 4 * self.max_json_mb,
                "max_json_values": 4 * self.max_json_values,
                "max_json_depth": 128,
            }
        )


# Public sites whose links keep their host (a repository, a docs page); the names, handles
# and ids in their paths are still rewritten.
DEFAULT_KEEP_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "githubusercontent.com",
    "githubassets.com",
    "gist.github.com",
    "docs.python.org",
    "pypi.org",
    "readthedocs.io",
    "readthedocs.org",
    "developer.mozilla.org",
    "stackoverflow.com",
    "wikipedia.org",
    "docs.google.com",
    "docs.rs",
    "crates.io",
    "npmjs.com",
    "pkg.go.dev",
    "go.dev",
    "learn.microsoft.com",
    "docs.aws.amazon.com",
    "cloud.google.com",
    "kubernetes.io",
    "docs.docker.com",
    "hub.docker.com",
    "mattermost.com",
    "docs.mattermost.com",
)


class AnonymiseSettings(Strict):
    """`[anonymise]` in curator.toml: what the user decided is not personal data (and whether
    places are)."""

    keep: list[str] = Field(
        default_factory=list,
        description="terms kept as written wherever they occur (a product, a company that is "
        "public); a detected name that contains one is kept too",
    )
    keep_hosts: list[str] = Field(
        default_factory=lambda: list(DEFAULT_KEEP_HOSTS),
        description="hosts (and their subdomains) whose links keep their host; names, handles "
        "and ids in their paths are still rewritten",
    )
    generalise_places: bool = Field(
        default=False,
        description="replace every city, region and country named in free text by its kind "
        '("[city]", "[region]", "[country]"), for a store that must not keep them; by '
        "default places are kept unless they are part of a street address",
    )


class StoreConfig(Strict):
    """curator.toml: the store's configuration."""

    store: StoreSettings = Field(default_factory=StoreSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    anonymise: AnonymiseSettings = Field(default_factory=AnonymiseSettings)
    doc_types: dict[str, DocTypeSpec] = Field(default_factory=dict)
    glossaries: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="language -> label phrase -> translation (bilingual)"
    )


# ---- predictions (curator gate)


class FieldPrediction(Strict):
    """What a system extracted for one field, and how sure it was."""

    # strict: JSON true is not the number 1, and "0.9" is not a confidence.
    value: StrictStr | StrictInt | StrictFloat | None = Field(
        default=None,
        description='the extracted value; null or "" when the system found none',
    )
    confidence: float | None = Field(
        default=None,
        ge=0,
        le=1,
        strict=True,
        description="the system's probability that the value is right",
    )


class RubricVerdict(Strict):
    """The user's own judge's verdict on one rubric statement of a thread fixture."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    rubric: str = Field(min_length=1, description="the rubric text, as in the bundle's labels")
    passed: bool = Field(alias="pass", strict=True)
    score: float | None = Field(default=None, ge=0, le=1, strict=True)
    judge: str | None = Field(
        default=None,
        description="curator's judge that gave it (e.g. openai:gpt-4o-mini); the gate "
        "then asks for its calibration on this bundle",
    )
    prompt_version: str | None = None


class PredictionMetrics(Strict):
    """Retrieval-quality metrics computed elsewhere (for example by RAGAS), each in [0, 1]."""

    context_recall: float | None = Field(default=None, ge=0, le=1, strict=True)
    faithfulness: float | None = Field(default=None, ge=0, le=1, strict=True)
    answer_relevancy: float | None = Field(default=None, ge=0, le=1, strict=True)


class RunStats(Strict):
    """How a fixture fared over repeated runs (`curator eval run --repeat N`)."""

    repetitions: int = Field(ge=1)
    passed: int = Field(ge=0, description="runs in which every item of the fixture was right")
    errors: int = Field(default=0, ge=0, description="runs in which the system raised or timed out")

    @model_validator(mode="after")
    def _within(self) -> RunStats:
        if self.passed > self.repetitions or self.errors > self.repetitions:
            raise ValueError("passed and errors count runs, so cannot exceed repetitions")
        return self


class Prediction(Strict):
    """One line of a predictions JSONL file: a system's output for one bundle fixture."""

    fixture_id: str = Field(min_length=1, description="the id of a fixture in the bundle")
    task: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the fixture's named task answered (one line per task); absent for a "
        "fixture without named tasks",
    )
    fields: dict[str, FieldPrediction] = Field(default_factory=dict)
    rubrics: list[RubricVerdict] = Field(default_factory=list)
    metrics: PredictionMetrics | None = None
    runs: RunStats | None = Field(
        default=None, description="repetitions, for the pass-rate and flaky-share floors"
    )


# ---- gate floors and report (curator gate)


class Floors(Strict):
    """Quality floors `curator gate` enforces; each gate is skipped when it has nothing to \
measure."""

    overall_accuracy: float = Field(default=0.9, ge=0, le=1, description="minimum item accuracy")
    adversarial_accuracy: float = Field(
        default=0.8, ge=0, le=1, description="minimum item accuracy on adversarial fixtures"
    )
    max_brier: float = Field(default=0.2, ge=0, le=1, description="maximum Brier score")
    max_faithfulness_drop: float = Field(
        default=0.05,
        ge=0,
        le=1,
        description="largest allowed fall of mean faithfulness vs the baseline",
    )
    min_pass_rate: float = Field(
        default=0.8,
        ge=0,
        le=1,
        description="minimum mean share of runs a fixture passes (repeated runs)",
    )
    max_flaky_share: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="largest share of fixtures that pass in some runs and fail in others",
    )
    min_judge_accuracy: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="a judge's calibration accuracy below this: its verdicts are refused",
    )
    max_judge_false_pass: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="a judge whose false-pass rate on known-bad answers may be above this (the "
        "upper bound of its 95 % interval, per rubric kind): refused",
    )
    task_accuracy: dict[
        Annotated[str, Field(pattern=TASK_NAME_PATTERN)], Annotated[float, Field(ge=0, le=1)]
    ] = Field(
        default_factory=dict,
        exclude_if=lambda value: not value,
        description="named task -> minimum item accuracy on that task ([floors.task_accuracy])",
    )


class QualityWeights(Strict):
    """Weights of the quality composite, divided by their sum."""

    context_recall: float = Field(
        default=0.35, ge=0, description="weight of the mean context recall"
    )
    faithfulness: float = Field(default=0.40, ge=0, description="weight of the mean faithfulness")
    answer_relevancy: float = Field(
        default=0.25, ge=0, description="weight of the mean answer relevancy"
    )

    @model_validator(mode="after")
    def _some_weight(self) -> QualityWeights:
        if self.context_recall + self.faithfulness + self.answer_relevancy <= 0:
            raise ValueError("the quality weights must not all be 0")
        return self


class FloorsFile(Strict):
    """floors.toml: `[floors]` and `[weights]` tables, every key optional."""

    floors: Floors = Field(default_factory=Floors)
    weights: QualityWeights = Field(default_factory=QualityWeights)


class ItemScore(Strict):
    name: str = Field(description="the field name, or the rubric text")
    kind: Literal["field", "rubric"]
    outcome: Literal["right", "wrong", "omitted", "missing"]
    classes: list[str] = Field(
        default_factory=list,
        description="failure classes, see the docs, 'Gate CI on quality floors'",
    )
    expected: str | None = None
    variants: list[str] = Field(default_factory=list)
    expected_absent: bool = False
    predicted: str | None = None
    confidence: float | None = None
    score: float | None = None


class FixtureScore(Strict):
    id: str
    # Left out when unset, so reports of fixtures without named tasks keep their bytes.
    task: str | None = Field(
        default=None, exclude_if=lambda value: value is None, description="the named task scored"
    )
    kind: Kind
    category: str
    adversarial: bool
    mutations: list[str] = Field(default_factory=list)
    missing: bool = Field(description="no prediction line for this fixture")
    passed: bool = Field(description="every item right")
    right: int = Field(ge=0)
    total: int = Field(ge=0)
    classes: list[str] = Field(default_factory=list)
    metrics: dict[str, float] = Field(default_factory=dict)
    composite: float | None = None
    extra_fields: list[str] = Field(default_factory=list)
    pass_rate: float | None = Field(default=None, description="share of repeated runs it passed")
    flaky: bool = Field(default=False, description="passed in some runs and failed in others")
    items: list[ItemScore] = Field(default_factory=list)

    @property
    def name(self) -> str:
        """The fixture id, `fixture/task` for a named task."""
        return task_label(self.id, self.task)


class GateCheck(Strict):
    name: str
    status: Literal["pass", "fail", "skip"]
    value: float | None = None
    threshold: float
    detail: str


class Regression(Strict):
    id: str
    before: str = Field(description="right/total items in the baseline")
    after: str = Field(description="right/total items now")
    classes: list[str] = Field(default_factory=list)


class GateReport(Strict):
    """report.json of `curator gate`; pass it back as --baseline to the next run."""

    format: Literal["curator-gate-report"] = "curator-gate-report"
    schema_version: Literal[1] = SCHEMA_VERSION
    generated_at: str
    bundle: str
    predictions: str
    predictions_sha256: str
    baseline: str | None = None
    passed: bool
    gates: list[GateCheck]
    floors: Floors
    accuracy: dict[str, Any]
    fixtures_passed: int
    fixtures_total: int
    missing_fixtures: list[str] = Field(default_factory=list)
    failure_classes: dict[str, int]
    calibration: dict[str, Any]
    quality: dict[str, Any]
    repetitions: dict[str, Any] | None = Field(
        default=None,
        description="pass rate and flaky fixtures, when predictions came from repeated runs",
    )
    regressions: list[Regression] = Field(default_factory=list)
    fixtures: list[FixtureScore]


# ---- evals.jsonl (curator eval run, the pytest plugin; read by curator view and report)


class EvalLine(BaseModel):
    """One line of evals.jsonl: one field or rubric of one fixture in one repetition.

    The first eight members are Mattermost's eval log line (its viewer reads them); the rest
    are curator's, which pin the result to the exact fixture content it came from. Unknown
    members are kept, so lines written by Mattermost's own `RecordScore` read too.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True, **DEFERRED)

    name: str = Field(
        description="the test: the fixture id, `fixture/task` for a named task (Mattermost: "
        "the Go test name)"
    )
    timestamp: str = Field(description="RFC 3339 time the verdict was recorded")
    run_number: int = Field(
        default=0, ge=0, description="repetition, 0-based (GOEVALS / CURATOR_EVALS)"
    )
    rubric: str = Field(
        default="", description="the rubric statement, or `field = expected` for a field"
    )
    output: str = Field(default="", description="what the system answered")
    reasoning: str = ""
    score: float = Field(default=0.0, ge=0, le=1)
    passed: bool = Field(alias="pass")
    fixture_id: str | None = None
    bundle_version: str | None = None
    fixture_sha256: str | None = Field(
        default=None, pattern="^[0-9a-f]{64}$", description="sha256 of the fixture's bundle line"
    )
    kind: Literal["field", "rubric"] | None = None
    field: str | None = Field(default=None, description="the field name, for a field item")
    expected: str | None = Field(default=None, description="the expected value, for a field item")
    category: str | None = None
    adversarial: bool | None = None
    mutations: list[str] = Field(default_factory=list, description="mutation names of its lineage")
    parent: str | None = Field(default=None, description="the golden it was derived from")
    judge: str | None = Field(
        default=None, description="judge name and model, e.g. openai:gpt-4o-mini"
    )
    prompt_version: str | None = None
    evidence: str | None = Field(
        default=None, description="the judge's quote from the fixture or output"
    )
    verified: bool | None = Field(default=None, description="the evidence quote was found")
    failure_class: str | None = None
    error: str | None = Field(default=None, description="the system or judge failed: why (no pass)")
    latency_ms: float | None = Field(default=None, ge=0)
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)
    test: str | None = Field(
        default=None, description="the pytest node id that recorded it (pytest plugin)"
    )
    # Left out when unset, so lines of fixtures without named tasks keep their bytes.
    task: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the fixture's named task the result is of (summary, action_items, ...)",
    )


# ---- judge calibration (curator judge calibrate; read by curator gate)


CalibrationAnswer = Literal[
    "known-bad",
    "reference",
    "evidence-removed",
    "contradicted",
    "other-reference",
    "empty",
    "off-topic",
    "true-value",
    "parent-value",
    "neighbour-value",
    "shifted-date",
]


class CalibrationCase(Strict):
    """One rubric judged on an answer whose verdict is known: a reviewed reference or a true
    field value (must pass), or a known-bad answer, hand-written or made from the fixtures
    (must fail; `answer` says how it was made, see curator.judge.known_answers)."""

    fixture_id: str
    task: str | None = Field(
        default=None, exclude_if=lambda value: value is None, description="its named task"
    )
    rubric: str
    answer: CalibrationAnswer
    expected_pass: bool
    passed: bool
    score: float | None = None
    reasoning: str = ""
    error: str | None = None
    # Records written before derived answers have none of these: rubric cases, text not kept.
    kind: Literal["rubric", "field"] = Field(
        default="rubric", description="a rubric statement, or a labelled field asked as one"
    )
    field: str | None = Field(
        default=None, exclude_if=lambda value: value is None, description="the field asked"
    )
    text: str | None = Field(
        default=None, exclude_if=lambda value: value is None, description="the answer judged"
    )
    detail: str = Field(
        default="",
        exclude_if=lambda value: not value,
        description="how the answer was made, e.g. '$950.00 -> $1,900.00 of the same thread'",
    )

    @property
    def agrees(self) -> bool:
        return self.error is None and self.passed == self.expected_pass


class RubricAgreement(Strict):
    rubric: str
    cases: int = Field(ge=0)
    agreed: int = Field(ge=0)
    agreement: float = Field(ge=0, le=1)


class ErrorRate(Strict):
    """Wrong judgements of one sort among `cases`, with a Wilson 95 % interval on the rate."""

    cases: int = Field(ge=0)
    wrong: int = Field(ge=0)
    rate: float | None = Field(default=None, ge=0, le=1, description="null when cases is 0")
    low: float | None = Field(default=None, ge=0, le=1)
    high: float | None = Field(default=None, ge=0, le=1)


class KindRates(Strict):
    """How a judge fares on one kind of rubric: negatives it passed, positives it failed."""

    kind: Literal["rubric", "field"]
    false_pass: ErrorRate = Field(description="known-bad answers the judge passed")
    false_fail: ErrorRate = Field(
        description="references and true values the judge failed (errors included)"
    )


class CalibrationRecord(Strict):
    """A judge measured against a bundle's known answers; `curator gate` checks it."""

    format: Literal["curator-judge-calibration"] = "curator-judge-calibration"
    schema_version: Literal[1] = 1
    bundle_version: str
    bundle_content_sha256: str = Field(pattern=SHA256_PATTERN)
    judge: str
    prompt_version: str
    calibrated_at: str
    cases: int = Field(ge=1, description="rubric judgements made")
    known_bad: int = Field(ge=0, description="judgements of known-bad answers (must fail)")
    reference: int = Field(
        ge=0, description="judgements of reviewed references and true values (must pass)"
    )
    errors: int = Field(
        ge=0, description="judgements the judge failed to make (count as disagreeing)"
    )
    accuracy: float = Field(
        ge=0, le=1, description="share of judgements that agree with the expectation"
    )
    false_pass_rate: float | None = Field(
        default=None, ge=0, le=1, description="share of known-bad judgements that passed"
    )
    by_rubric: list[RubricAgreement]
    results: list[CalibrationCase]
    by_kind: list[KindRates] = Field(
        default_factory=list,
        description="false-pass and false-fail rates per rubric kind (empty in older records)",
    )
    seed: int = Field(default=0, description="the seed the known-bad answers were made with")


# ---------------------------------------------------------------- bundles

SEMVER_PATTERN = (
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


class BundleMetadata(Strict):
    """The rest of fixture.json, so a bundle line rebuilds the Fixture exactly."""

    schema_version: Literal[1] = SCHEMA_VERSION
    status: Status
    tags: list[str] = Field(default_factory=list)
    title: str = ""
    created_at: str
    provenance: Provenance
    review: ReviewState = Field(default_factory=ReviewState)
    warnings: list[str] = Field(default_factory=list)


class BundleLine(Strict):
    """One line of a bundle's fixtures.jsonl: input, expected output, known-bad answers."""

    id: str = Field(pattern=FIXTURE_ID_PATTERN)
    kind: Kind
    doc_type: str | None = None
    category: str
    adversarial: bool
    mutation_kinds: list[str] = Field(default_factory=list)
    input: Content = Field(
        description="document pages, the thread in Mattermost export shape, or the "
        "conversation's messages"
    )
    expected: LabelRevision | None = Field(
        description="the current label revision: typed fields with variants and evidence, or "
        "rubrics"
    )
    known_bad: list[KnownBadAnswer] = Field(default_factory=list)
    lineage: Lineage | None = None
    metadata: BundleMetadata


class BundleEntry(Strict):
    """What the manifest says about one bundled fixture."""

    id: str = Field(pattern=FIXTURE_ID_PATTERN)
    kind: Kind
    doc_type: str | None = None
    category: str
    status: Status
    adversarial: bool
    mutation_kinds: list[str] = Field(default_factory=list)
    label_rev: int | None = Field(
        ge=1, description="the label revision bundled; null if unlabelled"
    )
    line_sha256: str = Field(
        pattern=SHA256_PATTERN, description="sha256 of its fixtures.jsonl line"
    )
    source_sha256: dict[str, str] = Field(
        description="store file name -> sha256 of the fixture.json, content.json, labels.jsonl "
        "it came from"
    )
    files: list[str] = Field(default_factory=list, description="bundle files of this fixture alone")


class BundleCounts(Strict):
    total: int = Field(ge=1)
    adversarial: int = Field(ge=0)
    by_kind: dict[str, int] = Field(default_factory=dict)
    by_category: dict[str, int] = Field(default_factory=dict)
    by_mutation: dict[str, int] = Field(
        default_factory=dict, description="mutation kind -> fixtures"
    )


class BundleManifest(Strict):
    """bundles/<version>/manifest.json: what is in the bundle and the sha256 of every file."""

    schema_version: Literal[1] = SCHEMA_VERSION
    bundle_version: str = Field(pattern=SEMVER_PATTERN)
    curator_version: str
    built_at: str = Field(description="newest label revision time in the bundle: reproducible")
    previous: str | None = Field(default=None, description="the version CHANGELOG.md is against")
    formats: list[str]
    statuses: list[Status] = Field(min_length=1, description="the fixture statuses selected")
    content_sha256: str = Field(
        pattern=SHA256_PATTERN,
        description="digest of fixtures.jsonl and formats: same content, same digest",
    )
    counts: BundleCounts
    fixtures: list[BundleEntry]
    files: dict[str, str] = Field(description="path -> sha256 of every file except manifest.json")


# ---------------------------------------------------------------- chat JSONL import


class ChatMessage(Open):
    """One line of a generic chat log (`curator import log.jsonl`).

    Unknown members are kept on the post they become. `time` is ISO 8601 or epoch
    milliseconds; messages that share a `thread` form one thread, the first one its root.
    """

    author: str = Field(min_length=1, description="who wrote it (a name or handle)")
    text: str = Field(description="the message text")
    time: str | int = Field(description="ISO 8601 timestamp or epoch milliseconds")
    thread: str | None = Field(default=None, description="thread id; absent: a top-level message")
    id: str | None = Field(default=None, description="message id; default: its line number")


# ---------------------------------------------------------------- failure records (promote)

FAILURE_MODES = (
    "hallucination",
    "field_targeting",
    "truncation_artifact",
    "confidence_mismatch",
    "other",
)
FailureMode = Literal[
    "hallucination", "field_targeting", "truncation_artifact", "confidence_mismatch", "other"
]


def check_failure_mode(mode: object) -> object:
    """A failure mode must be one curator knows; the error names them all."""
    if mode is not None and mode not in FAILURE_MODES:
        raise ValueError(f"unknown failure mode {mode!r} (known: {', '.join(FAILURE_MODES)})")
    return mode


class FailureInput(Strict):
    """What the system was given: exactly one of a thread export, a conversation, a PDF or
    plain text."""

    thread: dict[str, Any] | None = Field(default=None, description="a Mattermost thread export")
    conversation: dict[str, Any] | None = Field(
        default=None,
        description="an LLM conversation in OpenAI's chat format: {messages, model, ...}",
    )
    pdf: str | None = Field(default=None, description="path to a PDF, relative to the record file")
    pdf_base64: str | None = Field(default=None, description="the PDF's bytes, base64")
    text: str | None = Field(default=None, description="plain text, read as a one-page document")

    @model_validator(mode="after")
    def _exactly_one(self) -> FailureInput:
        given = [
            name
            for name in ("thread", "conversation", "pdf", "pdf_base64", "text")
            if getattr(self, name) is not None
        ]
        if len(given) != 1:
            raise ValueError(
                "input needs exactly one of thread, conversation, pdf, pdf_base64, text"
            )
        return self


class ObservedField(Strict):
    value: Any = None
    confidence: float | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="before")
    @classmethod
    def _bare_value(cls, data: Any) -> Any:
        # {"tenant": "Jane Roe"} is accepted as shorthand for {"tenant": {"value": "Jane Roe"}}.
        if isinstance(data, dict) and set(data) <= {"value", "confidence"} and data:
            return data
        return {"value": data}


class FailureOutput(Strict):
    """What the system answered: extracted fields, or a text (a thread summary)."""

    fields: dict[str, ObservedField] | None = None
    text: str | None = None

    @model_validator(mode="after")
    def _something(self) -> FailureOutput:
        if self.fields is None and self.text is None:
            raise ValueError("output needs fields or text")
        return self


class Corrections(Strict):
    """The right answer, as far as the reporter knows it. A null field value: expected absent."""

    fields: dict[str, str | None] = Field(default_factory=dict)
    rubrics: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)


class FailureRecord(Strict):
    """One production failure, as `curator promote` reads it (JSON, or one per line in JSONL)."""

    trace_id: str = Field(min_length=1, description="the tracing tool's id for this call")
    span_id: str | None = Field(
        default=None, description="the call's id within its trace (span, observation, run)"
    )
    observed_at: str = Field(description="ISO 8601 time the failure happened")
    failure_mode: FailureMode | None = Field(
        default=None, description="required unless `--failure-mode` gives it"
    )
    note: str = Field(default="", description="what went wrong, in the reporter's words")
    doc_type: str | None = Field(default=None, description="a doc type of curator.toml")
    input: FailureInput
    output: FailureOutput
    corrections: Corrections = Field(default_factory=Corrections)
    attributes: dict[str, Any] = Field(
        default_factory=dict,
        description="anything else the tracing tool had; ignored and never stored",
    )

    @field_validator("failure_mode", mode="before")
    @classmethod
    def _known_mode(cls, mode: object) -> object:
        return check_failure_mode(mode)

    @field_validator("observed_at")
    @classmethod
    def _iso_time(cls, value: str) -> str:
        from datetime import datetime

        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(
                "not an ISO 8601 time"
            ) from None  # the value may be anything, a name too
        return value
