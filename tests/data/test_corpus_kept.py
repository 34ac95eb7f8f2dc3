"""Issue 28, "what is not personal stays", on documents nobody here wrote: each text-layer PDF of
../shared/corpus imported into one store keeps at least 99.5 % of its word and number tokens
verbatim (its listed people and contact details aside), every place corpus_kept.py lists for
it as often as the text layer has it, and none of the people corpus_people.py lists for it.

One store for all, as benchmarks/kept.py measures: a name learned from one file must not
rewrite a place or a word of the next ("Diego" of one report in another's "SAN DIEGO").
"""

from __future__ import annotations

import pytest

from benchmarks.kept import TARGET, Kept, kept_per_file, text_layer_files
from tests.data.corpus_kept import CORPUS_CONTACTS, CORPUS_PLACES

FILES = text_layer_files()


# One vault key, so a failure is the same on every run: what the polish pass of the rewriter
# reads depends on the pseudonyms ("WILLIAM E FIELD"), and those on the key.
KEY = "d2hhdCBpcyBub3QgcGVyc29uYWwgc3RheXMhISEhISE="


@pytest.fixture(scope="module")
def kept() -> dict[str, Kept]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CURATOR_VAULT_KEY", KEY)
        return kept_per_file(FILES)


def test_the_lists_name_text_layer_files():
    names = {p.name for p in FILES}
    assert set(CORPUS_PLACES) <= names and set(CORPUS_CONTACTS) <= names
    assert len(names) >= 8  # the corpus is there and its text layers are read


@pytest.mark.parametrize("name", sorted(p.name for p in FILES))
def test_each_file_keeps_what_is_not_personal(kept, name):
    row = kept[name]
    assert row.share >= TARGET, (f"{row.share:.2%}", row.lost.most_common(12))
    assert row.places_lost == []
    assert row.people_left == []
