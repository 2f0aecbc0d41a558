"""The data dir's logs (`logs/tui.log`, `logs/vectors.log`), opened for appending without ever
following a symbolic link: one planted at a log's place (or at `logs/`) made the background
`lore vectors` child append to a file outside the data dir, wherever the link pointed. Exports
already replace their file rather than write through it (stores/atomic.py). No Textual here.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import BinaryIO

from stores.errors import StoreError

LOGS = "logs"


def open_log(data_dir: Path, name: str) -> BinaryIO:
    """`<data dir>/logs/<name>` open for appending bytes (created for the user alone); a
    StoreError naming it when it, or the logs folder, is a symbolic link or cannot be opened."""
    folder = data_dir / LOGS
    path = folder / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        # O_NOFOLLOW on the folder and then on the file, opened inside it: neither may be a link
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600,
                         dir_fd=dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            link = folder if folder.is_symlink() else path
            raise StoreError("the log is a symbolic link; Lorekeeper never writes a log "
                             "through one (it would write outside the data folder)",
                             where=link, hint=f"remove the link (rm {link}); the log is "
                                              "created anew") from None
        raise StoreError(f"cannot open the log: {exc.strerror or exc}", where=path,
                         hint=f"make {folder} a folder you can write") from None
    return os.fdopen(fd, "ab")
