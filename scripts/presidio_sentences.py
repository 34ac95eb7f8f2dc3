"""Labelled sentences from presidio-evaluator's generator, as JSONL: one record per sentence.

Run by the side venv's Python only (`make bench-venv` creates .bench-venv with a pinned
presidio-evaluator), never by curator's: benchmarks/pii_generated.py calls it as a subprocess
and caches the output under build/. This file calls the package; it copies nothing from it.

    .bench-venv/bin/python scripts/presidio_sentences.py --seed 28 --count 4000 --out build/x.jsonl

Offline by construction, checked here rather than trusted:
- every socket connection and DNS look-up in this process raises, so a download attempt
  fails the run instead of silently waiting for a time-out or falling back;
- the one default provider that goes to the network, HospitalProvider (it queries WikiData for
  US hospital names when built without a file, and its own file path is broken in 0.3.2: it
  reads `self.hospitals` before setting it), is replaced by a subclass whose list is the four
  names the package itself falls back to;
- nothing asks for a spaCy model: InputSample only tokenises (spacy.load("en_core_web_sm"))
  when built with create_tags_from_span=True, which the generator never does, and this
  script writes its own JSON instead of using the package's readers (which do).

Three things that 0.3.2 and Faker do, undone here in favour of the package's evident intent:
- its templates file spells line breaks as a literal backslash-n; PresidioSentenceFaker keeps
  them as two characters, the package's older reader (PresidioDataGenerator.read_template_file,
  which this script calls) turns them into newlines, as the address and signature templates
  need;
- Faker's dates run up to the current time, so the same seed gave other timestamps each run;
  a date provider with a fixed clock (CLOCK) makes the file repeat byte for byte;
- its lower-casing draw (lower_case_ratio) stores the lower-cased text in an attribute `fake`
  and leaves `full_text` as it was while lower-casing the span values; the text written here is
  that lower-cased `fake` whenever the draw happened (same length, so the spans still fit).

Each record: id, text, template (the template it was made from, placeholders and all),
template_id, lowered, and spans with start, end, value, the template's placeholder
(`placeholder`: "first_name", "address", ...) and Presidio's entity type for it (`presidio`:
"PERSON", "STREET_ADDRESS", ...); a person span also has `name_set`, the FakeNameGenerator
name set its name came from ("Czech", ...), or "Faker en_US"; a phone span `country`, its
record's country, or "Faker (PhoneNumberProviderNew)". Mapping to curator's types is the
benchmark's business, not this script's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

CLOCK = datetime(2025, 1, 1)  # "now" for Faker's dates (date_time, year, day_of_week...)


def no_network() -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(
            "presidio_sentences.py runs offline: something tried to reach the network"
        )

    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign, assignment]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]


def name_origins(fake_name_generator_csv: Path) -> Callable[[str], str]:
    """A person value -> the NameSet ("Czech", "Hungarian"...) of the FakeNameGenerator record it
    came from (given name and surname both, else either), or "Faker en_US" for names that
    the generator drew from Faker because no record held that field."""
    import pandas as pd  # type: ignore[import-untyped]  # (in the side venv; stubs nowhere)

    people = pd.read_csv(
        fake_name_generator_csv, usecols=["NameSet", "GivenName", "Surname"], encoding="utf-8-sig"
    )
    full: dict[tuple[str, str], str] = {}
    given: dict[str, Counter[str]] = defaultdict(Counter)
    surname: dict[str, Counter[str]] = defaultdict(Counter)
    for name_set, first, last in zip(
        people["NameSet"], people["GivenName"], people["Surname"], strict=True
    ):
        first, last = str(first).casefold(), str(last).casefold()
        full.setdefault((first, last), name_set)
        given[first][name_set] += 1
        surname[last][name_set] += 1

    def origin(value: str) -> str:
        words = value.casefold().split()
        if not words:
            return "Faker en_US"
        first, last = words[0], words[-1]
        if (first, last) in full:
            return full[first, last]
        for table, word in ((given, first), (surname, last), (given, last), (surname, first)):
            if word in table:
                return table[word].most_common(1)[0][0]
        return "Faker en_US"

    return origin


def phone_countries(fake_name_generator_csv: Path) -> dict[str, str]:
    """A FakeNameGenerator record's telephone number -> its country ("Denmark")."""
    import pandas as pd

    people = pd.read_csv(
        fake_name_generator_csv,
        usecols=["TelephoneNumber", "CountryFull"],
        dtype=str,
        encoding="utf-8-sig",
    )
    return dict(zip(people["TelephoneNumber"], people["CountryFull"], strict=True))


def generate(seed: int, count: int, lower_case_ratio: float) -> list[dict]:
    os.environ.setdefault("TQDM_DISABLE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from faker.providers.date_time import Provider as DateTimeProvider

    # the side venv's packages: mypy runs in curator's venv, which never has them
    from presidio_evaluator.data_generator import (  # type: ignore[import-not-found]
        PresidioSentenceFaker,
        presidio_additional_entity_providers,
        presidio_templates_file_path,
        raw_data_dir,
    )
    from presidio_evaluator.data_generator.faker_extensions import (  # type: ignore[import-not-found]
        HospitalProvider,
    )
    from presidio_evaluator.data_generator.presidio_data_generator import (  # type: ignore[import-not-found]
        PresidioDataGenerator,
    )

    class OfflineHospitalProvider(HospitalProvider):
        def load_hospitals(self, hospital_file: str | None) -> list[str]:
            return self.default_list

    class FixedClockDates(DateTimeProvider):
        """Faker's dates end at "now" by default: this clock stops at CLOCK, so a seed repeats."""

        def unix_time(self, end_datetime: Any = None, start_datetime: Any = None) -> float:
            return super().unix_time(
                end_datetime=end_datetime or CLOCK, start_datetime=start_datetime
            )

    providers = [
        OfflineHospitalProvider if p is HospitalProvider else p
        for p in presidio_additional_entity_providers
    ]
    providers.append(FixedClockDates)
    templates = [
        line.strip()
        for line in PresidioDataGenerator.read_template_file(presidio_templates_file_path)
        if line.strip()
    ]
    # Identity mapping: spans keep the template's placeholder; Presidio's type is added below.
    presidio_types = dict(PresidioSentenceFaker.ENTITY_TYPE_MAPPING)
    identity = {key: key for key in presidio_types}
    # The person records (FakeNameGenerator) draw middle initials with the global random
    # while the faker is built, before its own seeding: seed first so they repeat too.
    random.seed(seed)
    faker = PresidioSentenceFaker(
        locale="en_US",
        lower_case_ratio=lower_case_ratio,
        sentence_templates=templates,
        entity_providers=providers,
        entity_type_mapping=identity,
        random_seed=seed,
    )
    origin = name_origins(raw_data_dir / "FakeNameGenerator.com_3000.csv")
    countries = phone_countries(raw_data_dir / "FakeNameGenerator.com_3000.csv")
    records = []
    for number, sample in enumerate(faker.generate_new_fake_sentences(count), start=1):
        lowered = getattr(sample, "fake", None)
        text = (
            lowered
            if isinstance(lowered, str) and len(lowered) == len(sample.full_text)
            else sample.full_text
        )
        spans = []
        for span in sorted(sample.spans, key=lambda s: s.start_position):
            start, end = span.start_position, span.end_position
            if text[start:end].casefold() != str(span.entity_value).casefold():
                raise SystemExit(
                    f"sample {number}: span {start}-{end} reads {text[start:end]!r}, "
                    f"labelled {span.entity_value!r}"
                )
            placeholder = span.entity_type
            presidio = presidio_types.get(placeholder, placeholder.upper())
            spans.append(
                {
                    "start": start,
                    "end": end,
                    "value": text[start:end],
                    "placeholder": placeholder,
                    "presidio": presidio,
                }
            )
            if presidio == "PERSON":
                spans[-1]["name_set"] = origin(text[start:end])
            if placeholder == "phone_number":  # the record's own number, else a Faker format
                spans[-1]["country"] = countries.get(
                    str(span.entity_value), "Faker (PhoneNumberProviderNew)"
                )
        records.append(
            {
                "id": f"gen-{number:05d}",
                "text": text,
                "template": sample.masked,
                "template_id": sample.template_id,
                "lowered": text is lowered,
                "spans": spans,
            }
        )
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument(
        "--lower-case-ratio", type=float, default=0.05, help="the package README's value"
    )
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    no_network()
    records = generate(args.seed, args.count, args.lower_case_ratio)
    from importlib.metadata import version

    header = {
        "source": "presidio-evaluator",
        "version": version("presidio-evaluator"),
        "faker": version("faker"),
        "seed": args.seed,
        "count": len(records),
        "lower_case_ratio": args.lower_case_ratio,
    }
    tmp = f"{args.out}.{os.getpid()}.tmp"  # two pytest workers may make the same file at once
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(json.dumps({"header": header}) + "\n")
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(tmp, args.out)
    print(json.dumps(header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
