"""curator bundle build / verify / sign / diff."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import STATUSES, prints_result, show_progress, warn
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.bundle.build import BuildResult
    from curator.bundle.diff import BundleDiff
    from curator.bundle.signature import Signed
    from curator.bundle.verify import Verification
    from curator.model import LimitSettings


@click.group()
def bundle() -> None:
    """Build, verify and diff versioned fixture bundles."""


@bundle.command()
@click.argument("version")
@click.option(
    "--format",
    "formats",
    default="jsonl,hf,parquet,mattermost",
    show_default=True,
    metavar="LIST",
    help="Comma-separated formats: jsonl, hf, parquet, mattermost.",
)
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice(STATUSES),
    help="Bundle fixtures with this status (repeatable; default: active).",
)
@click.option("--archive", is_flag=True, help="Also write bundles/VERSION.tar.gz (reproducible).")
@click.option(
    "--strict-audit",
    is_flag=True,
    help="Refuse on every audit hit, also name, URL and phone guesses.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse when an active fixture of the previous version left without being retired.",
)
@prints_result
@pass_env
def build(
    env: Env,
    version: str,
    formats: str,
    statuses: tuple[str, ...],
    archive: bool,
    strict_audit: bool,
    strict: bool,
) -> BuildResult:
    """Build bundles/VERSION from the store's active fixtures.

    Versions are semantic and immutable: rebuilding one with the same content does
    nothing, with different content is refused. Prints the fixtures that joined or left
    since the previous version, and why.

    Example: curator bundle build 1.2.0 --format jsonl,hf --archive --strict
    """
    from curator.bundle.build import build_bundle

    result = build_bundle(
        env.store(),
        version,
        formats=formats,
        statuses=statuses or ("active",),
        archive=archive,
        progress=_progress_bar if show_progress() else None,
        strict_audit=strict_audit,
        strict=strict,
    )
    for message in result.warnings:
        warn(message)
    return result


@bundle.command()
@click.argument("path", metavar="DIR|ARCHIVE", type=click.Path(path_type=Path))
@click.option(
    "--key",
    type=click.Path(path_type=Path),
    help="Also check the bundle's signature with this Ed25519 public key (PEM).",
)
@click.option(
    "--signature",
    type=click.Path(path_type=Path),
    help="The signature file (default: VERSION.sig next to the bundle).",
)
@prints_result
@pass_env
def verify(env: Env, path: Path, key: Path | None, signature: Path | None) -> Verification:
    """Check every file's hash and schema; exit 1 naming each tampered, missing or extra file.

    With --key, also check who signed it (`curator bundle sign`).

    Example: curator bundle verify bundles/1.2.0.tar.gz --key builder.pub.pem
    """
    from curator.bundle.verify import verify_bundle

    located, limits = _located(env, path)
    if key is None:
        return verify_bundle(located, limits)
    from curator.bundle.signature import signature_path, signature_problem

    result = verify_bundle(located, limits)
    result.signature_checked = True
    problem = signature_problem(located, key, signature, limits)
    if problem is not None:
        result.add_signature_problem(signature or signature_path(located), problem)
    return result


@bundle.command()
@click.argument("path", metavar="DIR|ARCHIVE", type=click.Path(path_type=Path))
@click.option(
    "--key",
    type=click.Path(path_type=Path),
    required=True,
    help="The Ed25519 private key to sign with (PEM: openssl genpkey -algorithm ed25519).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Where to write the signature (default: VERSION.sig next to the bundle).",
)
@prints_result
@pass_env
def sign(env: Env, path: Path, key: Path, out: Path | None) -> Signed:
    """Sign a bundle's manifest (hence every file's hash) so consumers can check who built it.

    Example: curator bundle sign 1.2.0 --key builder.pem
    """
    from curator.bundle.signature import sign_bundle

    located, limits = _located(env, path)
    return sign_bundle(located, key, out, limits)


@bundle.command()
@click.argument("before", metavar="A", type=click.Path(path_type=Path))
@click.argument("after", metavar="B", type=click.Path(path_type=Path))
@prints_result
@pass_env
def diff(env: Env, before: Path, after: Path) -> BundleDiff:
    """Fixtures added, removed, relabelled (field by field) and changed from bundle A to B.

    A and B are bundle directories, archives, or versions in the store's bundles/.

    Example: curator bundle diff 1.0.0 1.1.0 --json
    """
    from curator.bundle.diff import diff_bundles

    (before_path, limits), (after_path, _) = _located(env, before), _located(env, after)
    return diff_bundles(before_path, after_path, limits)


def _progress_bar(items: list) -> Iterator:
    with click.progressbar(items, label="reading fixtures", file=sys.stderr) as bar:
        yield from bar


def _located(env: Env, path: Path) -> tuple[Path, LimitSettings]:
    """A path as given, else a version (or VERSION.tar.gz) in the store's bundles/; and the
    limits to read it under: the store's, else the defaults."""
    from curator import limits
    from curator.errors import StoreNotFound
    from curator.store import ARCHIVE_SUFFIX, is_version

    try:
        store = env.store()
    except StoreNotFound:
        return path, limits.DEFAULT
    version = str(path).removesuffix(ARCHIVE_SUFFIX)
    if not path.exists() and is_version(version):
        for candidate in (store.bundle_dir(version), store.bundle_archive(version)):
            if candidate.exists():
                return candidate, store.limits
    return path, store.limits
