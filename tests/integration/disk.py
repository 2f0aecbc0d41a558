"""A small disk for the tests of a full or read-only data folder: a tmpfs mount (needs root, as
in CI's container), its size changed while it is mounted, and filled to the last byte."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def mounted_tmpfs(point: Path, size: str = "64m") -> Iterator[Path]:
    """Mount a tmpfs of `size` on `point` for the test, or skip it where mounting is refused."""
    point.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip()}): run as root")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], check=False)


def resize(point: Path, size: str, *, readonly: bool = False) -> None:
    """Give the mounted tmpfs `point` a new size, read-only or writable."""
    flags = f"remount,size={size}" + (",ro" if readonly else ",rw")
    subprocess.run(["mount", "-o", flags, str(point)], check=True)


def fill(point: Path) -> Path:
    """Write a file on `point` until the disk is full; the file (unlink it to free the space)."""
    filler = point / "filler"
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler
