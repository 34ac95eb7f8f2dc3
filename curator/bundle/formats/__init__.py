"""Bundle output formats. Each module writes one format into a staged bundle directory.

fixtures.jsonl (jsonl.py) is always written: the manifest, the loader, diffs and
changelogs read it. The others are chosen with `--format`.
"""

FORMATS = ("jsonl", "hf", "parquet", "mattermost")
