from collections import Counter

from curator.store import Store
from curator.validate import validate_store
from tests.conftest import REPO


def test_shipped_sample_store_is_valid_and_complete():
    store = Store(REPO)
    assert validate_store(store) == []
    kinds = Counter(f.kind.value for f in store.select())
    assert kinds["document"] >= 4 and kinds["thread"] >= 3
    assert len(store.select(adversarial=False)) >= 8
    for record in store.records():
        labels = record.labels
        assert labels is not None, record.fixture.id
        assert labels.fields or labels.rubrics, record.fixture.id
        for name, label in labels.fields.items():
            assert label.expected_absent or label.evidence is not None, f"{record.fixture.id}:{name} has no evidence"
