"""A refused command leaves the store byte-identical: `.curator/` with its vault and lock
included, on a store as a fresh clone has it (no `.curator/` at all) and on one in use."""

from __future__ import annotations

import pytest

from tests.corpus import CORPUS_DIR as CORPUS
from tests.hostile.conftest import assert_refused, run, tree

LEASE = "residential-lease-agreement-0f35b496"

# Refused inside the import's store transaction, after the vault was opened and the lock
# taken: the anonymiser's self-check refusing (injected, so the case does not depend on it).
REFUSED_ANONYMISATION = (
    "import curator.ingest.fixtures as fixtures\n"
    "from curator.errors import CuratorError\n"
    "def refuse(name, *args, **kwargs):\n"
    "    raise CuratorError(f'{name}: anonymisation left 1 piece(s) of personal data; refusing "
    "to import it')\n"
    "fixtures.anonymise_one = refuse\n"
)

REFUSED = {
    "import-refused-in-transaction": (["import", "{thread}"], REFUSED_ANONYMISATION),
    "import-bad-category": (["import", "{thread}", "--category", "nope"], ""),
    "label-unknown-field": (["label", "set", LEASE, "nope=1"], ""),
    "label-bad-date": (["label", "set", LEASE, "lease_start_date=someday"], ""),
    "status-unknown-fixture": (["status", "unknown-fixture-0000aaaa", "--to", "active"], ""),
    "mutate-unknown-fixture": (["mutate", "unknown-fixture-0000aaaa", "--truncate"], ""),
    "bundle-nothing-to-bundle": (["bundle", "build", "1.0.0", "--status", "retired"], ""),
    "bundle-unknown-format": (["bundle", "build", "1.0.0", "--format", "xml"], ""),
    "review-no-server": (
        ["review", "push", "--url", "http://127.0.0.1:9", "--api-key", "k" * 12],
        "",
    ),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
@pytest.mark.parametrize("state", ["fresh-clone", "in-use"])
def test_a_refused_command_changes_no_byte_of_the_store(sandbox, sample, case, state):
    from tests.conftest import REPO

    if state == "in-use":  # vault, source index, caches: a store that has imported before
        assert run(
            sandbox, "import", CORPUS / "pdfs" / "pdfplumber-issue-140-example.pdf", store=sample
        ).exit_code in (0, 2)
        assert (sample.root / ".curator").is_dir()
    # A thread the sample store has not imported (its bytes differ from the example's).
    thread = sandbox.inputs / "thread.json"
    thread.write_bytes((REPO / "examples" / "threads" / "lease-question.json").read_bytes() + b"\n")
    args, fault = REFUSED[case]
    args = [arg.replace("{thread}", str(thread)) for arg in args]
    before, around = tree(sample.root), sandbox.outside()
    result = run(sandbox, *args, store=sample, fault=fault)
    assert_refused(
        result, store=sample, store_before=before, sandbox=sandbox, outside_before=around
    )
    if state == "fresh-clone":
        assert not (sample.root / ".curator").exists()
