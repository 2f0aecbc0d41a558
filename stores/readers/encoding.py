"""Read a corpus file's bytes and decode them: detect the encoding, never assume it.

UTF-8 (with or without a BOM) is tried strictly first. Chinese legacy encodings (GB18030/GBK,
Big5) both decode many byte strings "cleanly", so the choice between them is made by which
decoding yields more of the most common Han characters: a wrong decoding produces rare ones.
Windows-1252 is accepted when it yields only Latin letters and typographic punctuation;
charset-normalizer is the last resort for other legacy encodings. It cannot tell GBK from
Big5 (or cp1252 from cp1006) on short files, which is why it is not asked first.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from stores.errors import InputError, at_line
from stores.lang.zh import COMMON_HAN as _COMMON_HAN

MAX_TEXT_BYTES = 256 << 20
"""The most one corpus file may hold: a long novel is a few MB; a file of hundreds of MB is a
dump to split, which read whole (and decoded, chunked) would take gigabytes of memory."""
_HEAD = 8192
"""The bytes a file's kind is told from (binary or text)."""
_WESTERN_PUNCTUATION = frozenset("‘’“”–—…•«»°·§©®\u00a0¡¿£€")
_BINARY_MAGIC = {
    b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
    b"%PDF": "a PDF", b"PK\x03\x04": "a ZIP archive (docx/epub/odt are ZIP files)",
    b"\x1f\x8b": "a gzip archive", b"\x7fELF": "a program",
}


def decode_file(path: Path) -> tuple[str, str]:
    """Read `path` and return (text with LF line endings and no BOM, encoding name).

    Raises InputError naming the file for a missing path, a directory, an empty or
    whitespace-only file, a binary file, or bytes that no supported encoding decodes.
    """
    data = read_bytes(path)
    text, encoding = _decode(data, path)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InputError("the file holds only whitespace", where=path,
                         hint="put the text in the file, or leave it out of the ingest")
    return text, encoding


def not_a_file(path: Path) -> InputError:
    """A path that is neither a folder nor a regular file: a named pipe, socket or device."""
    return InputError("not a regular file (a named pipe, socket or device)", where=path,
                      hint="ingest the story's text files; to read from a pipe, save its output "
                           "to a file first (e.g. cat PIPE > story.txt)")


def sniff(path: Path) -> None:
    """Refuse, from its first bytes and its size alone, a file that is no text to ingest: a
    missing path, a folder, a pipe, an empty file, a binary file, or more text than one file
    may hold (MAX_TEXT_BYTES). Nothing else of the file is read: a 3 GB file was read whole,
    3.2 GB of memory, before being called binary."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", where=path,
                         hint="check the path (it is relative to the current directory)")
    if path.is_dir():
        raise InputError("is a directory, not a file", where=path,
                         hint="pass the files inside it (e.g. DIR/*.txt) instead of the folder")
    if not path.is_file():  # reading a named pipe would wait for a writer forever
        raise not_a_file(path)
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(_HEAD)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", where=path,
                         hint="check that it is readable by you") from None
    if not head:
        raise InputError("the file is empty", where=path,
                         hint="put the text in the file, or delete it or move it out of the "
                              "folder; then run the same command again")
    if not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        _reject_binary(head, path)
    if size > MAX_TEXT_BYTES:
        raise InputError(f"the file is {size / (1 << 20):,.0f} MB; at most "
                         f"{MAX_TEXT_BYTES >> 20} MB of text are read from one file",
                         where=path, hint="split it into smaller files (by chapters, or at "
                                          f"line ends: split -C 50m {path} part-) and move it "
                                          "out of the corpus folder")


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or an InputError saying what is wrong with the file (`sniff`)."""
    sniff(path)
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", where=path,
                         hint="check that it is readable by you") from None


def _decode(data: bytes, path: Path) -> tuple[str, str]:
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data, "utf-8-sig", path), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, "utf-16", path), "utf-16"
    _reject_binary(data, path)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        utf8_error = exc
    if _mostly_utf8(data):
        # A UTF-8 file with a few corrupt bytes: say where, rather than guess another encoding.
        line = data.count(b"\n", 0, utf8_error.start) + 1
        raise InputError(f"invalid UTF-8 bytes at byte offset {utf8_error.start}",
                         where=at_line(path, line),
                         hint="the file is damaged or mixes encodings; re-save it as UTF-8")
    for guess in (_decode_chinese, _decode_western):
        found = guess(data)
        if found is not None:
            if guess is _decode_chinese:
                _reject_utf8_lines(data, found[1], path)
            return found
    return _decode_other(data, path)


def _reject_utf8_lines(data: bytes, encoding: str, path: Path) -> None:
    """A GBK/Big5 file with a line in UTF-8 (pasted from elsewhere) decodes without an error,
    as mojibake ("鍒樺"): find such a line — valid UTF-8 that reads as more common Han
    characters in UTF-8 than in the file's encoding — and say where (issue 25)."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.isascii():
            continue
        try:
            as_utf8 = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        wide = sum(1 for ch in as_utf8 if ord(ch) > 127)
        native = raw.decode(encoding, errors="replace")
        if wide >= 2 and _han_count(as_utf8) > _han_count(native):
            raise InputError(f"line {number} is UTF-8 while the rest of the file is {encoding}",
                             where=at_line(path, number),
                             hint=f"the file mixes encodings: re-type that line in {encoding}, "
                                  "or convert the rest to UTF-8 and keep that line as it is")


def _han_count(text: str) -> int:
    return sum(1 for ch in text if ch in _COMMON_HAN)


def _strict(data: bytes, encoding: str, path: Path) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"the file starts with a {encoding} byte-order mark but has bytes "
                         f"that are not {encoding} at byte offset {exc.start}",
                         where=at_line(path, line), hint=f"re-save the file as {encoding}") from None


def _reject_binary(data: bytes, path: Path) -> None:
    head = data[:_HEAD]
    kind = next((name for magic, name in _BINARY_MAGIC.items() if head.startswith(magic)), "")
    controls = sum(1 for b in head if b < 32 and b not in b"\t\n\r\f\x1b")
    if kind or b"\x00" in head or controls > len(head) * 0.1:
        raise InputError(f"this is a binary file{', ' + kind if kind else ''}, not text",
                         where=path, hint="convert it to plain text (.txt/.md/.jsonl) first, "
                                          "or leave it out of the ingest")


def _mostly_utf8(data: bytes) -> bool:
    """True when nearly all non-ASCII bytes form valid UTF-8 sequences."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ord(ch) > 127) - bad
    return good >= 4 and bad <= good * 0.25


def _decode_chinese(data: bytes) -> tuple[str, str] | None:
    """GB18030/GBK or Big5, whichever decodes cleanly into more common Han characters."""
    best: tuple[int, str, str] | None = None
    for encoding in ("gb18030", "big5", "cp950"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        score = sum(1 for ch in text if ch in _COMMON_HAN)
        if best is None or score > best[0]:
            best = (score, text, encoding)
    if best is None:
        return None
    score, text, encoding = best
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    if score < max(1, non_ascii * 0.15):
        return None
    if encoding == "gb18030" and _decodes(data, "gbk"):
        encoding = "gbk"  # the name users know for the common subset
    return text, encoding


def _decode_western(data: bytes) -> tuple[str, str] | None:
    """Windows-1252 when every non-ASCII character it yields is a Latin letter or typographic
    punctuation (é, ü, ’, “, —): the usual legacy encoding of English and French texts."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    latin = all(ch.isascii() or "\u00c0" <= ch <= "\u024f" or ch in _WESTERN_PUNCTUATION
                for ch in text)
    return (text, "cp1252") if latin else None


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _decode_other(data: bytes, path: Path) -> tuple[str, str]:
    from charset_normalizer import from_bytes  # lazy: only legacy non-Chinese files need it

    match = from_bytes(data).best()
    if match is None or match.chaos > 0.3:
        raise InputError("cannot tell the file's encoding (not UTF-8, GB18030/GBK or Big5)",
                         where=path, hint="re-save the file as UTF-8")
    return str(match), match.encoding
