"""The docs: the command reference covers every command and option, the README stays short."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from curator.cli import cli
from tests.conftest import REPO
from tests.docs_site import build_site, page

README_MAX_LINES = 200


def commands(group: click.Group, ctx: click.Context) -> list[tuple[str, click.Command]]:
    """Every command under `group`, as (command path, command), walking subgroups."""
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        sub = click.Context(command, info_name=name, parent=ctx)
        found.append((sub.command_path, command))
        if isinstance(command, click.Group):
            found.extend(commands(command, sub))
    return found


ALL = commands(cli, click.Context(cli, info_name="curator"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def sections(reference: str) -> dict[str, str]:
    """The reference page cut at each command's heading: command path -> its section."""
    heading = re.compile(r'<h\d id="(curator[a-z0-9-]*)"')
    starts = [(m.start(), m.group(1)) for m in heading.finditer(reference)]
    ends = [start for start, _ in starts[1:]] + [len(reference)]
    return {
        anchor.replace("-", " "): reference[start:end]
        for (start, anchor), end in zip(starts, ends, strict=True)
    }


def test_the_walk_finds_the_subcommands():
    paths = [path for path, _ in ALL]
    assert "curator bundle build" in paths and "curator label set" in paths and len(paths) > 20


def test_every_command_and_option_is_in_the_reference(site):
    documented = sections(page(site, "reference/cli"))
    missing = [path for path, _ in ALL if path not in documented]
    assert not missing, f"commands missing from docs/reference/cli.md: {missing}"
    for path, command in ALL:
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                flag = max(param.opts, key=len)
                assert f"<code>{flag}</code>" in documented[path], (
                    f"{path} {flag} is not in its reference section"
                )


def test_the_readme_is_short():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; move the rest to docs/"
    )


def test_the_readme_command_table_lists_every_command():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z]+)`(?:, `([a-z]+)`)? \|", readme, re.MULTILINE))
    names = {name for pair in listed for name in pair if name}
    assert names == set(cli.list_commands(click.Context(cli)))


def test_the_readme_links_only_to_docs_that_exist():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert links and all((REPO / link).is_file() for link in links), links
