"""Finding a model's weights without hanging on a hub this machine may not reach.

A hub id that is not cached makes transformers retry the download for about 70 s before it
fails when there is no network. Resolving first — local folder, then the Hugging Face cache,
then a 2-second reachability probe — turns that into an immediate ConfigError that names
the setting.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlparse

from stores.errors import ConfigError


def looks_like_path(model: str) -> bool:
    """True for './x', '/x', '~/x', 'C:\\x', or anything that exists on disk."""
    return (model.startswith((".", "/", "~", "\\")) or (len(model) > 1 and model[1] == ":")
            or Path(model).expanduser().exists())


def hub_reachable(timeout: float = 2.0) -> bool:
    """Can we open a TCP connection to the Hugging Face hub (or HF_ENDPOINT)?"""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes"}:
        return False
    endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def cached_snapshot(repo_id: str) -> str | None:
    """The local folder of a hub model already in the Hugging Face cache, if any."""
    try:
        from huggingface_hub import snapshot_download

        return str(snapshot_download(repo_id=repo_id, local_files_only=True))
    except Exception:  # not cached, or not a valid repo id: the caller decides what to say
        return None


def resolve_model(model: str, *, setting: str, what: str, fetch_hint: str) -> tuple[str, bool]:
    """Where to load `model` from: (local folder or hub id, is_local).

    Raises ConfigError naming `setting` when the folder does not exist, or when a hub id is
    neither cached nor downloadable from here.
    """
    if looks_like_path(model):
        folder = Path(model).expanduser()
        if not folder.exists():
            raise ConfigError(f"{what} {model!r}: no such file or folder", where=setting,
                              hint=f"Point {setting} at the model's folder. {fetch_hint}")
        return str(folder), True
    cached = cached_snapshot(model)
    if cached is not None:
        return cached, True
    if not hub_reachable():
        raise ConfigError(
            f"{what} {model!r} is not in the local Hugging Face cache and the hub cannot be "
            "reached from this machine", where=setting, hint=fetch_hint)
    return model, False


def first_line(exc: BaseException) -> str:
    """`Type: first line of the message` — library errors can run to pages."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def quiet_model_loading() -> None:
    """No progress bars from transformers / huggingface_hub: they would scribble over the TUI."""
    try:
        from huggingface_hub.utils import disable_progress_bars
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        disable_progress_bars()
    except ImportError:  # an older or newer layout: progress bars are cosmetic
        pass
