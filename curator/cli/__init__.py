"""The `curator` command: a lazy click group, so `--help` imports nothing heavy.

Each command lives in its own module under curator/cli/ and is imported only when run.
"""

from __future__ import annotations

import importlib
import signal
import sys
import threading
from contextlib import ExitStack
from typing import NoReturn

import click

from curator import __version__
from curator.cli.env import Env
from curator.errors import CuratorError

# name -> (module under curator.cli, attribute, one-line help shown by `curator --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("store_cmds", "init", "Create a new store."),
    "list": ("store_cmds", "list_fixtures", "List fixtures."),
    "show": ("store_cmds", "show", "Show one fixture."),
    "validate": ("store_cmds", "validate", "Check schema, lineage and label integrity."),
    "status": ("status", "status", "Move fixtures to a status (draft, active, retired, ...)."),
    "stats": ("stats", "stats", "Store composition against the adversarial target."),
    "label": ("label", "label", "Set and inspect ground-truth label revisions."),
    "import": (
        "import_cmd",
        "import_sources",
        "Import threads, chat logs, PDFs and scans as fixtures.",
    ),
    "audit": ("audit", "audit", "Scan fixtures and bundles for leaked personal data."),
    "vault": ("vault_cmd", "vault", "Add a missed name or forget a word, in the whole store."),
    "mutate": ("mutate", "mutate", "Make adversarial variants with transformed labels."),
    "review": ("review", "review", "Push to and pull from Label Studio."),
    "promote": ("promote", "promote", "Turn production failures into fixtures."),
    "bundle": ("bundle", "bundle", "Build, verify and diff fixture bundles."),
    "export": (
        "export_cmd",
        "export",
        "Export a bundle for inspect_ai, DeepEval, Ragas, promptfoo, Langfuse.",
    ),
    "gate": ("gate", "gate", "Score predictions against a bundle and gate on floors."),
    "eval": ("eval_cmd", "eval_group", "Run a system over a bundle: predictions and evals.jsonl."),
    "judge": ("judge_cmd", "judge", "Calibrate a rubric judge on a bundle's known answers."),
    "view": ("view", "view", "Browse an eval run (evals.jsonl); check it or write a PR comment."),
    "report": (
        "report",
        "report",
        "Write a self-contained HTML report of a bundle, gate and runs.",
    ),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[cmd_name]
        return getattr(importlib.import_module(f"curator.cli.{module}"), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_path",
    metavar="PATH",
    envvar="CURATOR_STORE",
    help="The store to use (default: nearest folder upward with curator.toml).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")  # main() reads it
@click.version_option(__version__, prog_name="curator")
@click.pass_context
def cli(ctx: click.Context, store_path: str | None, debug: bool) -> None:
    """Build and maintain golden test sets for LLM systems.

    Exit codes: 0 done, 1 a check found problems, 2 bad usage or bad input.
    """
    ctx.obj = Env(store_path)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: every failure is one line on stderr and exit code 2 (130 on Ctrl-C, 143
    on SIGTERM), never a traceback unless --debug; secrets are redacted from both."""
    from curator.scratch import private_folder

    args = sys.argv[1:] if argv is None else argv
    # SIGTERM and SIGHUP unwind like Ctrl-C: the private temporary folder is removed, OCR
    # workers are killed.
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = (
        {signum: signal.signal(signum, _terminated) for signum in (signal.SIGTERM, signal.SIGHUP)}
        if in_main_thread
        else {}
    )
    try:
        with ExitStack() as stack:
            try:
                stack.enter_context(private_folder())
            except OSError as error:
                _fail(args, f"cannot make a private temporary folder: {error}", 2)
            _run(args)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _run(args: list[str]) -> NoReturn:
    debug = "--debug" in args
    try:
        result = cli.main(args=args, prog_name="curator", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.exceptions.Abort as error:
        if isinstance(error.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            _fail(args, "interrupted", 130)
        _fail(args, "aborted", 2)
    except click.ClickException as error:
        _fail(args, error.format_message(), 2)
    except KeyboardInterrupt:
        _fail(args, "interrupted", 130)
    except Terminated as stop:
        _fail(args, stop.says, 128 + stop.signum)
    except CuratorError as error:
        _fail(args, str(error), error.exit_code, traceback=debug)
    except OSError as error:
        _fail(
            args,
            f"{error.strerror or error}: {error.filename or ''}".rstrip(": "),
            2,
            traceback=debug,
        )
    except MemoryError:
        _fail(
            args,
            "out of memory (see [limits] in curator.toml for the input limits)",
            2,
            traceback=debug,
        )
    except Exception as error:  # a bug, or an input nothing anticipated
        # Its message is not shown: it may quote the input (a KeyError of a name, a value).
        _fail(
            args,
            f"unexpected {type(error).__name__}; run with --debug for the traceback",
            2,
            traceback=debug,
        )
    sys.exit(result if isinstance(result, int) else 0)


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread so the command unwinds (see main)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.says = "hung up" if signum == signal.SIGHUP else "terminated"


def _terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


def _fail(args: list[str], message: str, code: int, *, traceback: bool = False) -> NoReturn:
    """Print one redacted error line (with --debug, the redacted traceback before it) and exit."""
    import os

    from curator.cli.redact import redact, secrets_in

    secrets = secrets_in(args, os.environ)
    if traceback:
        import traceback as tb

        click.echo(redact("".join(tb.format_exc()), secrets).rstrip("\n"), err=True)
    click.echo(f"curator: error: {redact(message, secrets)}", err=True)
    sys.exit(code)
