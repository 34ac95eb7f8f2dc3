import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.spans import Edit, OverlappingEdits, apply_edits, find_all


def test_replacement_inside_span_resizes_it():
    text = "Tenant: John Smith, rent due."
    new, mapping = apply_edits(text, [Edit(8, 18, "Maria Lopez-Garcia")])
    assert new == "Tenant: Maria Lopez-Garcia, rent due."
    assert mapping.span(8, 18) == (8, 26)
    # text after the edit shifts by the length difference
    start = text.index("rent")
    assert new[mapping.offset(start) :].startswith("rent")


def test_insertion_at_span_boundary_stays_outside():
    text = "Rent: 1200"
    new, mapping = apply_edits(text, [Edit(6, 6, "USD "), Edit(10, 10, " per month")])
    assert new == "Rent: USD 1200 per month"
    start, end = mapping.span(6, 10)
    assert new[start:end] == "1200"


def test_span_ending_before_a_replacement_does_not_take_it():
    text = "abcdefgh"
    new, mapping = apply_edits(text, [Edit(4, 6, "XYZ")])
    assert new == "abcdXYZgh"
    assert new.__getitem__(slice(*mapping.span(0, 4))) == "abcd"
    assert new.__getitem__(slice(*mapping.span(6, 8))) == "gh"


def test_deleted_span_is_lost():
    _, mapping = apply_edits("keep drop keep", [Edit(4, 9, "")])
    assert mapping.span(5, 9) is None
    assert mapping.span(0, 4) == (0, 4)


def test_overlapping_edits_are_refused():
    with pytest.raises(OverlappingEdits):
        apply_edits("abcdef", [Edit(0, 3, "x"), Edit(2, 4, "y")])
    with pytest.raises(OverlappingEdits):
        apply_edits("abcdef", [Edit(2, 2, "x"), Edit(2, 2, "y")])


def test_edit_outside_text_is_refused():
    with pytest.raises(ValueError):
        apply_edits("abc", [Edit(2, 5, "x")])


def test_find_all_ignores_case():
    assert find_all("Anna met ANNA and anna", "anna", ignore_case=True) == [
        (0, 4),
        (9, 13),
        (18, 22),
    ]
    assert find_all("Anna met ANNA", "anna") == []


@st.composite
def text_with_edits(draw):
    text = draw(st.text(alphabet="abcde ", min_size=1, max_size=60))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8, unique=True)))
    edits = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        edits.append(Edit(start, end, draw(st.text(alphabet="XYZ", max_size=5))))
    return text, edits


@given(text_with_edits(), st.data())
def test_untouched_spans_keep_their_text(case, data):
    """Any span that no edit touches maps to the same characters in the new text."""
    text, edits = case
    new, mapping = apply_edits(text, edits)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    touched = any(
        e.start < end and start < e.end or (e.start == e.end and start < e.start < end)
        for e in edits
    )
    if not touched and end > start:
        new_start, new_end = mapping.span(start, end)
        assert new[new_start:new_end] == text[start:end]


@given(text_with_edits())
def test_edited_span_maps_to_replacement(case):
    text, edits = case
    new, mapping = apply_edits(text, edits)
    for edit in edits:
        if edit.end > edit.start and edit.replacement:
            start, end = mapping.span(edit.start, edit.end)
            assert new[start:end] == edit.replacement


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_two_maps_compose_into_one_that_rebuilds_the_final_text(data):
    """then(): the changed regions, each replaced by its new range, turn the first text into
    the last, and a span of unchanged text maps where the two maps put it one after the other."""
    text = data.draw(st.text(alphabet="abc ", max_size=30))

    def edits(of: str) -> list[Edit]:
        points = sorted(data.draw(st.lists(st.integers(0, len(of)), max_size=8, unique=True)))
        pairs = list(zip(points[::2], points[1::2], strict=False))
        return [Edit(a, b, data.draw(st.text(alphabet="XY", max_size=3))) for a, b in pairs]

    middle, first = apply_edits(text, edits(text))
    final, second = apply_edits(middle, edits(middle))
    both = first.then(second)
    rebuilt, cursor = [], 0
    for old_start, old_end, new_start, new_end in zip(
        both.old_starts, both.old_ends, both.new_starts, both.new_ends, strict=True
    ):
        rebuilt += [text[cursor:old_start], final[new_start:new_end]]
        cursor = old_end
    assert "".join([*rebuilt, text[cursor:]]) == final
    for i in range(len(text)):
        if not any(s <= i < e for s, e in zip(both.old_starts, both.old_ends, strict=True)):
            assert final[both.offset(i)] == text[i] and both.offset(i) == second.offset(
                first.offset(i)
            )
