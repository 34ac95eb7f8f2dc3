"""The engine: lineage, determinism, chains, refusals and staleness refresh."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

from curator.errors import CuratorError
from curator.labels import set_labels
from curator.mutate.engine import Step, apply_chain, variant_id
from curator.mutate.registry import (
    REGISTRY,
    Option,
    Outcome,
    Switch,
    get,
    load_all,
    option_usages,
    register,
    steps_from_options,
)
from curator.store import Store
from tests import samples
from tests.conftest import CURATOR, run_cli, snapshot, subprocess_env
from tests.mutate.conftest import variant_of


def _files(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_every_mutation_is_registered_by_name():
    assert {"truncate", "ocr-noise", "ocr-render", "bilingual", "contradict"} <= set(load_all())
    categories = {name: m.category for name, m in REGISTRY.items()}
    assert categories["truncate"] == "truncated" and categories["contradict"] == "contradictory"
    try:
        get("shuffle")
    except CuratorError as error:
        assert "unknown mutation 'shuffle'" in str(error)
    else:
        raise AssertionError("an unknown mutation must be refused")


def test_a_registered_function_is_all_a_new_mutation_needs(samples_store, config):
    @register("upper-test", category="other", owns="nothing")
    def upper(subject, rng, params):
        return Outcome(
            subject.content,
            dict(subject.labels.fields),
            list(subject.labels.rubrics),
            {"ran": True},
        )

    try:
        parent = samples_store.store.load(samples_store.thread)
        variant = apply_chain(parent, config, [Step("upper-test")], 0)
        assert variant.fixture.category == "other"
        assert variant.revision.source == "mutation:upper-test"
        assert variant.fixture.lineage.mutations[0].measured == {"ran": True}
    finally:
        REGISTRY.pop("upper-test")


def test_declared_options_become_command_options_and_steps():
    import click

    from curator.cli.mutate import mutation_options

    def keep(subject, rng, params):
        return Outcome(subject.content, dict(subject.labels.fields), list(subject.labels.rubrics))

    register(
        "repeat-test",
        category="other",
        owns="nothing",
        options=[Option("--repeat-test", "times", int, "N", bare=2, help="Repeat N times.")],
    )(keep)
    register(
        "loud-test",
        category="other",
        owns="nothing",
        options=[Switch("--loud-test", of="--repeat-test", param="loud", help="Louder.")],
    )(keep)
    try:
        params = {p.name: p for p in mutation_options(click.command()(lambda **_: None)).params}
        assert params["repeat_test"].type == click.INT and params["repeat_test"].flag_value == 2
        assert params["loud_test"].is_flag
        assert "--repeat-test [N]" in option_usages()
        # In the order given; a switch with a param sets it on its option's step.
        given = [
            ("repeat_test", 3),
            ("truncate", None),
            ("ocr_noise", 0.1),
            ("loud_test", True),
            ("render", False),
        ]
        assert steps_from_options(given) == [
            Step("repeat-test", {"times": 3, "loud": True}),
            Step("ocr-noise", {"cer": 0.1}),
        ]
        # a switch without one makes the step its own mutation, whatever order the switches came in
        for switches in (
            [("render", True), ("noise_values", True)],
            [("noise_values", True), ("render", True)],
        ):
            assert steps_from_options([("ocr_noise", 0.1), *switches]) == [
                Step("ocr-render", {"cer": 0.1, "noise_values": True})
            ]
        with pytest.raises(CuratorError, match="--loud-test goes with --repeat-test"):
            steps_from_options([("loud_test", True)])
        with pytest.raises(CuratorError, match="no mutation option 'shout'"):
            steps_from_options([("shout", 1)])
    finally:
        REGISTRY.pop("repeat-test")
        REGISTRY.pop("loud-test")


def test_lineage_and_revision(samples_store):
    result = run_cli(
        "mutate",
        samples_store.lease,
        "--ocr-noise",
        "0.08",
        "--seed",
        "3",
        "--json",
        store=samples_store.root,
    )
    info = variant_of(result.stdout)
    variant = samples_store.store.load(info["id"])
    parent = samples_store.store.load(samples_store.lease)
    assert variant.directory.parent.name == "adversarial"
    lineage = variant.fixture.lineage
    assert lineage.parent == samples_store.lease and lineage.parent_label_rev == 1
    assert [(m.name, m.params, m.seed) for m in lineage.mutations] == [
        ("ocr-noise", {"cer": 0.08}, 3)
    ]
    assert "cer" in lineage.mutations[0].measured
    assert len(variant.revisions) == 1
    assert (
        variant.labels.source == "mutation:ocr-noise" and variant.labels.time == parent.labels.time
    )
    assert variant.fixture.created_at == parent.labels.time
    assert run_cli("validate", store=samples_store.root).exit_code == 0


def test_same_recipe_same_id_and_bytes_whatever_the_clock(tmp_path, monkeypatch):
    made = []
    for name, epoch in (("a", "1767225600"), ("b", "1800000000")):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # the parents are the same
        store = Store.init(tmp_path / name)
        parent = samples.add(store, "lease", 11)
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)  # mutating later changes nothing
        result = run_cli(
            "mutate",
            parent,
            "--truncate",
            "0.7",
            "--ocr-noise",
            "0.1",
            "--bilingual",
            "de",
            "--seed",
            "9",
            "--json",
            store=store.root,
        )
        assert result.exit_code == 0, result.stderr
        made.append((store, variant_of(result.stdout)["id"]))
    (store_a, id_a), (store_b, id_b) = made
    assert id_a == id_b
    assert _files(store_a.directory(id_a)) == _files(store_b.directory(id_b))


def test_same_bytes_from_a_fresh_process(samples_store):
    """Hash seeds differ between processes; nothing in a variant may depend on them."""
    args = ["mutate", samples_store.lease, "--contradict", "tenant", "--ocr-noise", "--json"]
    here = run_cli(*args, store=samples_store.root)
    variant = variant_of(here.stdout)["id"]
    before = _files(samples_store.store.directory(variant))
    for path in samples_store.store.directory(variant).iterdir():
        path.unlink()
    samples_store.store.directory(variant).rmdir()
    child = subprocess.run(
        [*CURATOR, "--store", str(samples_store.root), *args],
        capture_output=True,
        text=True,
        env=subprocess_env(PYTHONHASHSEED="12345"),
        check=False,
    )
    assert child.returncode == 0, child.stderr
    assert variant_of(child.stdout)["id"] == variant
    assert _files(samples_store.store.directory(variant)) == before


def test_seed_and_order_change_the_variant():
    steps = [Step("truncate", {"fraction": 0.6}), Step("ocr-noise", {"cer": 0.05})]
    assert variant_id("lease-x-00000000", steps, 0) != variant_id("lease-x-00000000", steps, 1)
    assert variant_id("lease-x-00000000", steps, 0) != variant_id(
        "lease-x-00000000", steps[::-1], 0
    )
    assert variant_id("lease-x-00000000", steps, 0).startswith("lease-x-truncate-ocr-noise-")


def test_chain_in_order_given_takes_last_category(samples_store):
    result = run_cli(
        "mutate",
        samples_store.lease,
        "--contradict",
        "monthly_rent",
        "--ocr-noise",
        "0.05",
        "--json",
        store=samples_store.root,
    )
    assert result.exit_code == 0, result.stderr
    info = variant_of(result.stdout)
    assert [m["name"] for m in info["mutations"]] == ["contradict", "ocr-noise"]
    assert info["category"] == "ocr-noise"
    variant = samples_store.store.load(info["id"])
    rent = variant.labels.fields["monthly_rent"]
    assert rent.value == info["mutations"][0]["measured"]["new_value"] and rent.authority
    assert variant.labels.source == "mutation:ocr-noise"
    assert set(variant.fixture.tags) >= {"mutation:contradict", "mutation:ocr-noise"}


def test_running_again_writes_nothing(samples_store):
    args = ("mutate", samples_store.lease, "--truncate", "--json")
    first = variant_of(run_cli(*args, store=samples_store.root).stdout)
    before = snapshot(samples_store.root)
    again = variant_of(run_cli(*args, store=samples_store.root).stdout)
    assert (first["state"], again["state"], again["id"]) == ("created", "exists", first["id"])
    assert snapshot(samples_store.root) == before


def test_several_ids_all_or_nothing(samples_store):
    before = snapshot(samples_store.root)
    result = run_cli(
        "mutate", samples_store.lease, "lease-nope-00000000", "--truncate", store=samples_store.root
    )
    assert result.exit_code == 2 and "lease-nope-00000000" in result.stderr
    assert snapshot(samples_store.root) == before
    # one id that cannot take the mutation stops the others too
    result = run_cli(
        "mutate", samples_store.thread, samples_store.single, "--truncate", store=samples_store.root
    )
    assert result.exit_code == 2
    assert snapshot(samples_store.root) == before
    result = run_cli(
        "mutate",
        samples_store.lease,
        samples_store.invoice,
        "--ocr-noise",
        "--json",
        store=samples_store.root,
    )
    assert result.exit_code == 0 and len(json.loads(result.stdout)["variants"]) == 2


def test_usage_errors(samples_store):
    before = snapshot(samples_store.root)
    for args, message in [
        ([samples_store.lease], "give a mutation"),
        ([samples_store.lease, "--render"], "--render goes with --ocr-noise"),
        (["--truncate"], "at least one fixture ID"),
        ([samples_store.lease, "--refresh", "--truncate"], "give no mutation options"),
        ([samples_store.lease, "--refresh"], "not a mutation variant"),
    ]:
        result = run_cli("mutate", *args, store=samples_store.root)
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)
    assert snapshot(samples_store.root) == before


def test_stale_variants_are_reported_and_refreshed(samples_store):
    made = {}
    for option in (["--truncate", "0.9"], ["--ocr-noise", "0.1"], ["--bilingual", "it"]):
        result = run_cli("mutate", samples_store.lease, *option, "--json", store=samples_store.root)
        made[option[0]] = variant_of(result.stdout)["id"]
    # a variant of a variant: refreshed after its parent, in the same run
    result = run_cli(
        "mutate", made["--truncate"], "--pages", "1", "--json", store=samples_store.root
    )
    grandchild = variant_of(result.stdout)["id"]
    assert run_cli("validate", store=samples_store.root).exit_code == 0

    set_labels(
        samples_store.store,
        samples_store.lease,
        assignments={"tenant": ""},
        reason="tenant redacted",
        author="t",
    )
    report = run_cli("validate", "--json", store=samples_store.root)
    assert report.exit_code == 1
    stale = {p["fixture"] for p in json.loads(report.stdout)["problems"] if p["kind"] == "stale"}
    assert stale == set(made.values())
    again = variant_of(
        run_cli(
            "mutate", samples_store.lease, "--ocr-noise", "0.1", "--json", store=samples_store.root
        ).stdout
    )
    assert again["state"] == "stale"

    result = run_cli("mutate", "--refresh", "--json", store=samples_store.root)
    assert result.exit_code == 0, result.stderr
    refreshed = json.loads(result.stdout)["variants"]
    assert [v["id"] for v in refreshed][:3] == sorted(made.values()) and refreshed[-1][
        "id"
    ] == grandchild
    assert run_cli("validate", store=samples_store.root).exit_code == 0
    for variant_id_ in [*made.values(), grandchild]:
        variant = samples_store.store.load(variant_id_)
        assert variant.labels.fields["tenant"].expected_absent
        assert len(variant.revisions) == 2 and variant.labels.source.startswith("mutation:")
        assert variant.labels.reason.startswith("refresh:")
    assert samples_store.store.load(made["--truncate"]).fixture.lineage.parent_label_rev == 2
    # nothing stale now: refresh does nothing
    before = snapshot(samples_store.root)
    assert (
        json.loads(run_cli("mutate", "--refresh", "--json", store=samples_store.root).stdout)[
            "variants"
        ]
        == []
    )
    assert snapshot(samples_store.root) == before


def test_refresh_that_cannot_apply_writes_nothing(samples_store):
    result = run_cli(
        "mutate",
        samples_store.lease,
        "--contradict",
        "monthly_rent",
        "--json",
        store=samples_store.root,
    )
    variant = variant_of(result.stdout)["id"]
    set_labels(
        samples_store.store, samples_store.lease, assignments={"monthly_rent": ""}, author="t"
    )
    before = snapshot(samples_store.root)
    result = run_cli("mutate", variant, "--refresh", store=samples_store.root)
    assert result.exit_code == 2 and "no value for 'monthly_rent'" in result.stderr
    assert snapshot(samples_store.root) == before


def test_rng_streams_are_independent_of_global_random(samples_store, config):
    parent = samples_store.store.load(samples_store.lease)
    first = apply_chain(parent, config, [Step("ocr-noise", {"cer": 0.1})], 4)
    random.seed(99)
    random.random()
    second = apply_chain(parent, config, [Step("ocr-noise", {"cer": 0.1})], 4)
    assert first.content == second.content and first.revision == second.revision


def test_refresh_keeps_what_people_added(samples_store):
    result = run_cli(
        "mutate", samples_store.lease, "--truncate", "--json", store=samples_store.root
    )
    variant_id_ = variant_of(result.stdout)["id"]
    fixture = samples_store.store.load_fixture(variant_id_)
    samples_store.store.save_fixture(
        fixture.model_copy(update={"tags": [*fixture.tags, "hard-case"]})
    )
    set_labels(samples_store.store, samples_store.lease, assignments={"tenant": ""}, author="t")
    assert run_cli("mutate", "--refresh", store=samples_store.root).exit_code == 0
    assert "hard-case" in samples_store.store.load_fixture(variant_id_).tags


def test_a_variant_whose_truth_disagrees_with_its_text_is_never_written(samples_store):
    """The engine checks the truth after every step: a mutation that forgets to move a span is
    caught."""
    from curator.mutate.engine import mutate

    @register("careless-test", category="other", owns="nothing")
    def careless(subject, rng, params):  # rewrites the text without _textops.rewrite
        page = subject.content.pages[0]
        moved = subject.content.with_texts({("page", page.number): "Moved. " + page.text})
        return Outcome(moved, dict(subject.labels.fields), list(subject.labels.rubrics))

    try:
        before = snapshot(samples_store.root)
        with pytest.raises(CuratorError) as refused:
            mutate(samples_store.store, [samples_store.lease], [Step("careless-test")])
        assert (
            "careless-test would make a variant whose truth disagrees with its text (field "
            in str(refused.value)
        )
        assert str(refused.value).endswith("nothing written")
        assert snapshot(samples_store.root) == before
    finally:
        REGISTRY.pop("careless-test")


def test_a_parent_whose_truth_disagrees_with_its_text_is_refused(samples_store):
    content = samples_store.store.directory(samples_store.lease) / "content.json"
    tenant = samples_store.store.load(samples_store.lease).labels.fields["tenant"].value
    content.write_text(content.read_text().replace(tenant, "X" * len(tenant), 1))
    before = snapshot(samples_store.root)
    result = run_cli("mutate", samples_store.lease, "--truncate", store=samples_store.root)
    assert result.exit_code == 2
    assert (
        f"{samples_store.lease}: its truth disagrees with its text (field tenant: " in result.stderr
    )
    assert "fix its labels with curator label set first" in result.stderr
    assert snapshot(samples_store.root) == before
