"""A private folder swept by another command before its flock is made again.

Seen in the suite: command B's `remove_dead` looked at command A's new folder between
mkdtemp and A's flock, found it unheld and removed it, and A failed with "cannot make a
private temporary folder". The sweep is injected here at that moment (a fault injection:
os.open is wrapped to run it first)."""

from __future__ import annotations

import os

from curator import scratch


def test_a_folder_swept_before_its_lock_is_made_again_and_held(tmp_path, monkeypatch):
    real_open = os.open
    swept: list[list] = []

    def sweep_then_open(path, flags, *args, **kwargs):
        if not swept and os.path.basename(path).startswith(scratch.MAKING):
            swept.append([])
            swept[0] += scratch.remove_dead(tmp_path)  # B, between A's mkdtemp and flock
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(scratch.os, "open", sweep_then_open)
    monkeypatch.setattr(scratch.tempfile, "tempdir", str(tmp_path))
    with scratch.private_folder() as folder:
        monkeypatch.setattr(scratch.os, "open", real_open)
        assert swept == [[]] and folder.is_dir()  # B removed the first folder, A made another
        assert folder.name.startswith(scratch.PREFIX)
        assert not folder.name.startswith(scratch.MAKING)
        assert scratch.is_held(folder)
        scratch.remove_dead(tmp_path)  # held under its final name: a sweep now keeps it
        assert folder.is_dir()
    assert list(tmp_path.iterdir()) == []
