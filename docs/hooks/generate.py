"""MkDocs hook: the reference tables that the code defines, generated at build time.

A page asks for a generated block with a line of its own:

    ::: curator settings curator.model.StoreConfig   every table of a TOML file, from its model
    ::: curator fields curator.model.LimitSettings   one model's fields as a table
    ::: curator schemas                              every schemas/*.schema.json, field by field
    ::: curator modules curator.anonymise            a package's modules and their docstrings
    ::: curator packages curator                     the same, one level deep
    ::: curator api curator.bundle                   a module's __all__, with signatures
    ::: curator benchmarks                           every benchmarks/*.py docstring
    ::: curator mutations                            the mutation registry

and for a value in running text, `{{ curator.store.LOCK_WAIT_SECONDS }}` (a module
attribute, or a pydantic model's field default). A block or value that does not resolve
stops the build: a typo must never leave a silently empty table.

A hook rather than mkdocs-gen-files: the tables sit inside hand-written pages, beside the
prose that explains them, and the pages stay ordinary files under docs/.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import markdown.extensions
import markdown.preprocessors
from pydantic import BaseModel
from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parents[2]
# The docs describe the checkout they are built from, not whichever curator is installed.
sys.path.insert(0, str(ROOT))
BLOCK = re.compile(r"^::: curator (\w+)(?: +(\S+))?\s*$")
# A backslash before the braces writes them as they are: \{{ name }}.
VALUE = re.compile(r"(\\?)\{\{ *([A-Za-z_][\w.]*) *\}\}")


class GenerateError(Exception):
    """A block or value the hook cannot produce; MkDocs reports it and stops."""


def on_config(config: Any) -> Any:
    config.markdown_extensions.append(ClickPage())
    _no_sentinel_defaults()
    return config


def _no_sentinel_defaults() -> None:
    """mkdocs-click 0.9 predates click 8.2, whose options without a default hold a sentinel
    instead of None: its table would print `Sentinel.UNSET` as the default and never say
    `required`. It is shown the None it expects."""
    import copy

    import mkdocs_click._docs as click_docs

    format_row = click_docs._format_table_option_row
    if getattr(format_row, "curator", False):  # `mkdocs serve` runs on_config per rebuild
        return

    def row(option: Any) -> str:
        if type(option.default).__name__ == "Sentinel":
            option = copy.copy(option)
            option.default = None
        return format_row(option)

    row.curator = True  # type: ignore[attr-defined]
    click_docs._format_table_option_row = row


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    where = page.file.src_uri
    out = []
    for line in markdown.splitlines():
        match = BLOCK.match(line)
        if match:
            out.extend(block(match.group(1), match.group(2), where))
        elif line.startswith("::: curator"):
            raise GenerateError(f"{where}: cannot read {line!r}")
        else:
            out.append(
                VALUE.sub(
                    lambda m: m.group(0)[1:] if m.group(1) else value(m.group(2), where), line
                )
            )
    return "\n".join(out) + "\n"


def block(kind: str, argument: str | None, where: str) -> list[str]:
    makers: dict[str, Callable[[str | None], Iterator[str]]] = {
        "settings": lambda arg: settings(model_at(arg, where)),
        "fields": lambda arg: field_table(model_at(arg, where)),
        "schemas": lambda _: schemas(),
        "modules": lambda arg: modules(required(arg, where)),
        "packages": lambda arg: modules(required(arg, where), nested=False),
        "api": lambda arg: api(required(arg, where)),
        "benchmarks": lambda _: benchmarks(),
        "mutations": lambda _: mutations(),
    }
    if kind not in makers:
        raise GenerateError(
            f"{where}: unknown block '::: curator {kind}' (known: {', '.join(makers)})"
        )
    return ["", *makers[kind](argument), ""]


def required(argument: str | None, where: str) -> str:
    if not argument:
        raise GenerateError(f"{where}: the block needs an argument")
    return argument


# ---------------------------------------------------------------- values


def resolve(dotted: str) -> Any:
    """`curator.store.LOCK_WAIT_SECONDS`, or `curator.model.StoreSettings.dedup_threshold`
    (a field's default)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if isinstance(obj, type) and issubclass(obj, BaseModel) and name in obj.model_fields:
                obj = obj.model_fields[name].get_default(call_default_factory=True)
            elif hasattr(obj, name):
                obj = getattr(obj, name)
            else:
                raise GenerateError(f"{dotted}: no {name!r} in {obj!r}")
        return obj
    raise GenerateError(f"{dotted}: no such module")


def value(dotted: str, where: str) -> str:
    try:
        found = resolve(dotted)
    except GenerateError as error:
        raise GenerateError(f"{where}: {error}") from None
    if isinstance(found, float) and found.is_integer():
        return f"{int(found):,}"
    if isinstance(found, int) and not isinstance(found, bool):
        return f"{found:,}"
    return str(found)


# ---------------------------------------------------------------- settings tables


def model_at(dotted: str | None, where: str) -> type[BaseModel]:
    found = resolve(required(dotted, where))
    if not (isinstance(found, type) and issubclass(found, BaseModel)):
        raise GenerateError(f"{where}: {dotted} is not a pydantic model")
    return found


def settings(model: type[BaseModel], table: str = "") -> Iterator[str]:
    """One section per TOML table of `model`: its plain keys in a table, then its
    sub-tables. At the top of a file (`table` empty) every key is a table."""
    if table:
        plain = {n: f for n, f in model.model_fields.items() if nested(n, f.annotation) is None}
        yield f"### `[{table}]` {{#{anchor(table)}}}"
        yield ""
        if model.__doc__:
            yield inspect.cleandoc(model.__doc__)
            yield ""
        if plain:
            yield from field_table(model, only=plain)
            yield ""
    for name, f in model.model_fields.items():
        path = f"{table}.{name}" if table else name
        sub = nested(name, f.annotation)
        if sub is not None:
            yield from settings(sub[0], path + sub[1])
        elif not table:
            # a top-level map of plain values (glossaries): a table whose keys are free
            if typing.get_origin(f.annotation) is not dict:
                raise GenerateError(f"{model.__name__}.{name}: a top-level key that is no table")
            path += f".<{MAP_KEYS.get(name, 'key')}>"
            yield f"### `[{path}]` {{#{anchor(path)}}}"
            yield ""
            yield f"{type_name(typing.get_args(f.annotation)[1])}: {f.description or ''}"
            yield ""


# What the keys of a top-level map of plain values are.
MAP_KEYS = {"glossaries": "language"}


def anchor(table: str) -> str:
    """`doc_types.<doc_type>.fields` -> `doc_types-doc_type-fields`."""
    return re.sub(r"[^a-z0-9_]+", "-", table.lower()).strip("-")


def nested(name: str, annotation: Any) -> tuple[type[BaseModel], str] | None:
    """(model, key placeholder) when a field is a TOML table: a model, or a map of models
    (`doc_types` -> `doc_types.<doc_type>`)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, ""
    if typing.get_origin(annotation) is dict:
        _, item = typing.get_args(annotation)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return item, f".<{name.removesuffix('s')}>"
    return None


def field_table(model: type[BaseModel], only: dict[str, FieldInfo] | None = None) -> Iterator[str]:
    yield "| key | type | default | allowed | meaning |"
    yield "|---|---|---|---|---|"
    for name, f in (only or model.model_fields).items():
        default = (
            "required"
            if f.is_required()
            else code(toml_value(f.get_default(call_default_factory=True)))
        )
        cells = [
            f"`{name}`",
            type_name(f.annotation),
            default,
            constraints(f),
            cell(f.description or ""),
        ]
        yield "| " + " | ".join(cells) + " |"


def type_name(annotation: Any) -> str:
    if annotation is type(None):
        return "unset"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(f"`{member.value}`" for member in annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(a) for a in args)
    if origin is list:
        return f"list of {type_name(args[0])}"
    if origin is dict:
        return f"table of {type_name(args[0])} → {type_name(args[1])}"
    if origin is typing.Literal:
        return " or ".join(f"`{a!r}`" for a in args)
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def constraints(f: FieldInfo) -> str:
    words = {
        "ge": "≥",
        "gt": ">",
        "le": "≤",
        "lt": "<",
        "min_length": "at least",
        "max_length": "at most",
    }
    found = []
    for item in f.metadata:
        for attribute, word in words.items():
            if getattr(item, attribute, None) is not None:
                found.append(f"{word} {getattr(item, attribute):,}")
        if getattr(item, "pattern", None):
            found.append(f"matches `{item.pattern}`")
    return ", ".join(found)


def toml_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, enum.Enum):
        return json.dumps(value.value)
    if isinstance(value, int):
        return f"{value:_}" if value >= 10_000 else str(value)
    if isinstance(value, (str, float, list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def code(text: str) -> str:
    return f"`{text}`" if text else "unset"


def cell(text: str) -> str:
    """Text that stays inside one table cell."""
    return " ".join(text.split()).replace("|", "&#124;")


# ---------------------------------------------------------------- file formats


def schemas() -> Iterator[str]:
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        slug = path.name.removesuffix(".schema.json")
        yield f"## {path.name} {{#{slug}}}"
        yield ""
        if schema.get("description"):
            yield schema["description"]
            yield ""
        yield f"Model `curator.model.{schema.get('title')}`; file `schemas/{path.name}`."
        yield ""
        yield from properties_table(schema, slug)
        for name, definition in sorted(schema.get("$defs", {}).items()):
            yield f"### {name} {{#{slug}-{name.lower()}}}"
            yield ""
            if definition.get("description"):
                yield definition["description"]
                yield ""
            if "enum" in definition:
                yield "One of " + ", ".join(f"`{v}`" for v in definition["enum"]) + "."
                yield ""
            yield from properties_table(definition, slug)


def properties_table(schema: dict[str, Any], slug: str) -> Iterator[str]:
    properties = schema.get("properties", {})
    if not properties:
        return
    needed = set(schema.get("required", []))
    yield "| member | type | required | meaning |"
    yield "|---|---|---|---|"
    for name, prop in properties.items():
        meaning = prop.get("description", "")
        if "default" in prop and prop["default"] not in (None, [], {}, ""):
            meaning = (
                f"{meaning} (default `{json.dumps(prop['default'], ensure_ascii=False)}`)".strip()
            )
        required = "yes" if name in needed else ""
        yield f"| `{name}` | {json_type(prop, slug)} | {required} | {cell(meaning)} |"
    extra = schema.get("additionalProperties")
    if extra is True:
        yield "| *other members* | any | | kept as they came |"
    yield ""


def json_type(prop: dict[str, Any], slug: str) -> str:
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{slug}-{name.lower()})"
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "enum" in prop:
        return " or ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    for union in ("anyOf", "oneOf"):
        if union in prop:
            return " or ".join(json_type(p, slug) for p in prop[union])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"array of {json_type(prop.get('items', {}), slug)}"
    if kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"map of {json_type(prop['additionalProperties'], slug)}"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind)


# ---------------------------------------------------------------- modules, API, benchmarks


def modules(package: str, *, nested: bool = True) -> Iterator[str]:
    """Read with ast, not imported: the map follows whatever modules the package has today.
    Without `nested`, only its own modules and the packages in it."""
    folder = ROOT.joinpath(*package.split("."))
    if not (folder / "__init__.py").is_file():
        raise GenerateError(f"{package}: not a package under {ROOT}")
    paths = (
        folder.rglob("*.py") if nested else [*folder.glob("*.py"), *folder.glob("*/__init__.py")]
    )
    yield "| module | what it holds |"
    yield "|---|---|"
    for path in sorted(paths):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        yield f"| `{name}` | {cell(first_paragraph(doc))} |"


def api(module_name: str) -> Iterator[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if not names:
        raise GenerateError(f"{module_name}: has no __all__")
    for name in names:
        obj = getattr(module, name)
        signature = f"{name}{_signature(obj)}" if callable(obj) else name
        yield f"`{module_name}.{signature}`"
        yield ""
        doc = obj.__doc__ if isinstance(obj, type) else inspect.getdoc(obj)
        if doc and not doc.startswith(
            f"{name}("
        ):  # a dataclass's made-up docstring is its signature
            yield ": " + first_paragraph(inspect.cleandoc(doc))
            yield ""


def mutations() -> Iterator[str]:
    from curator.mutate.registry import Option, load_all

    yield "| mutation | options | variant category | truth it may change |"
    yield "|---|---|---|---|"
    for mutation in load_all().values():
        flags = []
        for option in mutation.options:
            usage = option.usage if isinstance(option, Option) else option.flag
            flags.append(f"`{usage}`: {cell(option.help)}")
        options = "<br>".join(flags)
        yield f"| `{mutation.name}` | {options} | `{mutation.category}` | {cell(mutation.owns)} |"


class _Written:
    """An annotation as the source wrote it (postponed annotations are strings, which
    inspect would print in quotes)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _signature(obj: Any) -> str:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""

    def written(annotation: Any) -> Any:
        return _Written(annotation) if isinstance(annotation, str) else annotation

    parameters = [
        p.replace(annotation=written(p.annotation)) for p in signature.parameters.values()
    ]
    return str(
        signature.replace(
            parameters=parameters, return_annotation=written(signature.return_annotation)
        )
    )


def benchmarks() -> Iterator[str]:
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        if path.name.startswith("_"):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not doc:
            raise GenerateError(
                f"{path.name}: a benchmark needs a docstring saying its method and baseline"
            )
        yield f"## {path.name}"
        yield ""
        yield from docstring_markdown(doc)


def docstring_markdown(doc: str) -> Iterator[str]:
    """Plain docstring text as Markdown: indented runs become text blocks, the rest prose."""
    lines = doc.splitlines()
    index = 0
    while index < len(lines):
        if not lines[index].strip():
            index += 1
            continue
        run = []
        if lines[index].startswith(" "):
            # an indented run goes on over blank lines while indented lines follow them
            while index < len(lines) and (lines[index].startswith(" ") or not lines[index].strip()):
                run.append(lines[index])
                index += 1
            while not run[-1].strip():
                run.pop()
            yield "```text"
            yield from inspect.cleandoc("\n".join(run)).splitlines()
            yield "```"
        else:
            while index < len(lines) and lines[index].strip() and not lines[index].startswith(" "):
                run.append(lines[index])
                index += 1
            yield from run
        yield ""


def first_paragraph(doc: str) -> str:
    return " ".join(doc.split("\n\n", 1)[0].split())


# ---------------------------------------------------------------- click examples as code


class ClickPage(markdown.extensions.Extension):
    """Click help writes examples as `Example:` and indented lines under a `\\b` marker;
    mkdocs-click drops the marker, running them into one paragraph. They become code
    blocks here, and its `_required` (an unclosed emphasis) reads `required`."""

    def extendMarkdown(self, md: Any) -> None:  # noqa: N802 (Markdown's name)
        # After mkdocs-click's preprocessor (141), which expands the directive.
        md.preprocessors.register(_ClickPage(md), "curator_click_page", 140)


EXAMPLE = re.compile(r"^(Examples?):(?: (curator .*))?$")


class _ClickPage(markdown.preprocessors.Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        index = 0
        while index < len(lines):
            line = lines[index]
            index += 1
            match = EXAMPLE.match(line)
            if not match:
                out.append(line.replace("| _required |", "| required |"))
                continue
            example = [match.group(2)] if match.group(2) else []
            if not example:
                while index < len(lines) and lines[index].startswith("  "):
                    example.append(lines[index][2:])
                    index += 1
            out.extend(
                [f"{match.group(1)}:", "", "```console", *example, "```", ""] if example else [line]
            )
        return out
