"""Files written atomically get the permissions any written file would."""

from __future__ import annotations

import os
from pathlib import Path

from stores.atomic import write_text


def test_a_new_file_is_readable_as_any_file_and_a_replaced_one_keeps_its_mode(
        tmp_path: Path) -> None:
    # a newcomer's trial: exports came out 0600 (owner only), the temporary file's mode
    mask = os.umask(0o022)
    os.umask(mask)
    new = tmp_path / "timeline.md"
    write_text(new, "# Timeline")
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    new.chmod(0o640)
    write_text(new, "# Timeline, again")
    assert new.stat().st_mode & 0o777 == 0o640 and new.read_text() == "# Timeline, again"
