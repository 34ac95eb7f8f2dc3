"""curator.toml: reading it, and the default a new store starts with."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from curator.errors import CuratorError, first_problem
from curator.model import DocTypeSpec, FieldSpec, StoreConfig

CONFIG_NAME = "curator.toml"
ModelT = TypeVar("ModelT", bound=BaseModel)


def default_config_text() -> str:
    return resources.files("curator").joinpath("data", CONFIG_NAME).read_text(encoding="utf-8")


def load_config(path: Path) -> StoreConfig:
    return load_toml(path, StoreConfig)


def load_toml(path: Path, model: type[ModelT]) -> ModelT:
    """A TOML file read into `model`; any problem is one line naming the file."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CuratorError(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise CuratorError(f"{path}: not valid TOML: {error}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise CuratorError(f"{path}: {first_problem(error)}") from None


def doc_type(config: StoreConfig, name: str) -> DocTypeSpec:
    try:
        return config.doc_types[name]
    except KeyError:
        known = ", ".join(sorted(config.doc_types)) or "none"
        raise CuratorError(f"unknown doc type {name!r} (known: {known})") from None


def field_spec(config: StoreConfig, doc_type_name: str, field: str) -> FieldSpec:
    spec = doc_type(config, doc_type_name)
    try:
        return spec.fields[field]
    except KeyError:
        known = ", ".join(spec.fields)
        raise CuratorError(
            f"unknown field {field!r} for doc type {doc_type_name!r} (known: {known})"
        ) from None


def value_locale(config: StoreConfig, doc_type_name: str | None) -> str:
    """The locale a fixture's values are read in: its doc type's `locale`, else the store's."""
    spec = config.doc_types.get(doc_type_name) if doc_type_name else None
    return (spec.locale if spec is not None else None) or config.store.locale
