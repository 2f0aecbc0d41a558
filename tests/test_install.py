"""The installed set works as a whole: every selectable backend imports, and drift is reported.

Each backend is imported in a fresh interpreter, as a user selecting it meets it: a release that
no longer works with the rest (transformers 5 under FlagEmbedding 1.4.2) fails here, not in a
user's terminal.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stores import backends
from stores.errors import ConfigError
from tui.commands import packages

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.parametrize("backend", backends.BACKENDS, ids=lambda b: f"{b.module}.{b.attribute}")
def test_every_selectable_backend_imports(backend: backends.Backend) -> None:
    code = (f"from stores.backends import load; "
            f"print(callable(load({backend.module!r}, {backend.attribute!r})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{backend.setting}: {done.stderr.strip()[-2000:]}"
    assert done.stdout.strip() == "True"


def test_a_library_that_cannot_be_imported_names_the_setting_and_the_fix(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> None:
        raise ModuleNotFoundError("No module named 'transformers.modeling_attn_mask_utils'")

    monkeypatch.setattr(backends.importlib, "import_module", broken)
    with pytest.raises(ConfigError) as caught:
        backends.load("FlagEmbedding", "FlagReranker")
    assert caught.value.where == 'retrieval.reranker = "flag:…"'
    assert "modeling_attn_mask_utils" in caught.value.message
    assert "requirements.lock" in caught.value.hint and "make clean" in caught.value.hint


def test_the_lock_pins_every_dependency_exactly() -> None:
    pins = packages.read_lock()
    for name in packages.MATTER:
        assert packages.canonical(name) in pins, f"{name} is not in requirements.lock"
    # the known break: FlagEmbedding 1.4 needs transformers 4
    assert pins["transformers"].startswith("4.")


def test_the_installed_set_is_the_lock() -> None:
    found = packages.drift()
    assert found.locked > 100
    assert found.differ == [], f"installed packages differ from the lock: {found.differ}"


def test_drift_names_each_package_that_differs(tmp_path: Path) -> None:
    lock = tmp_path / "requirements.lock"
    lock.write_text("numpy==0.0.1\n    # via lorekeeper\nno-such-package-here==1.0\n"
                    "textual==" + (packages.installed("textual") or "") + "\n")
    found = packages.drift(lock)
    assert found.locked == 3
    assert [(name, want) for name, want, _ in found.differ] == [
        ("no-such-package-here", "1.0"), ("numpy", "0.0.1")]
    assert dict((n, h) for n, _, h in found.differ)["no-such-package-here"] is None
