"""Terminal-app benchmark: time from launch to an interactive screen, and key-press latency
while an answer is being built (demo world, offline model).

    .venv/bin/python bench/tui.py [--home DIR] [--runs 3] [--questions 10] [--json]

Two measurements of each figure:
- terminal: `python -m tui` in a private tmux server, read back with capture-pane (what a user
  sees; includes the terminal round trip, polled every 10 ms). Skipped without tmux.
- headless: the app under Textual's Pilot in this process (no terminal in the way): the
  time to the main screen and to the world being open, key latency from the key event to
  the app having processed it, and the event loop's worst stall while answers are built.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUESTIONS = ROOT / "stores" / "demo_world" / "questions.jsonl"


def prepare(home: Path) -> None:
    """The demo world in `home`, ingested unless it is there already."""
    from stores.catalog import Catalog
    from stores.ingest import ingest
    from tui.commands.world import DEMO_WORLD, demo_world_path
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml", home)
    catalog = Catalog(settings.catalog_path)
    try:
        row = catalog.world(DEMO_WORLD)
    finally:
        catalog.close()
    if row is None or row["state"] != "ready":
        folder = demo_world_path()
        ingest(settings, DEMO_WORLD, [folder / "zh", folder / "en", folder / "dialogue"],
               folder / "glossary.toml")


def questions(n: int) -> list[str]:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    return [r["question"] for r in rows][:n]


def summary(values: list[float]) -> dict[str, float]:
    """p50 / p95 / max in milliseconds."""
    if not values:
        return {}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(values), "p50_ms": round(statistics.median(values) * 1000, 1),
            "p95_ms": round(p95 * 1000, 1), "max_ms": round(max(values) * 1000, 1)}


# -- in a real terminal (tmux) -------------------------------------------------------------------
class Tmux:
    def __init__(self) -> None:
        self.socket = f"lore-bench-{os.getpid()}"

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "bench")

    def wait(self, predicate, timeout: float = 60.0, poll: float = 0.01) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            if predicate(self.screen()):
                return time.perf_counter()
            time.sleep(poll)
        raise TimeoutError(f"screen never matched; it was:\n{self.screen()}")


def terminal(home: Path, runs: int, asked: list[str]) -> dict[str, object]:
    """Launch-to-screen times over `runs` launches; key latency while answers are built."""
    paint, ready, answerable, keys = [], [], [], []
    # the pane stays after the app exits, so a crash shows its traceback in the error
    command = (f"cd {ROOT} && env -u COLUMNS -u LINES LORE_HOME={home} "
               f"LORE_CONFIG={ROOT / 'config.toml'} {sys.executable} -m tui; "
               "echo app exited with $?; sleep 60")
    for run in range(runs):
        tmux = Tmux()
        started = time.perf_counter()
        tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "36", command)
        try:
            paint.append(tmux.wait(lambda s: "Ask about" in s) - started)
            ready.append(tmux.wait(lambda s: "Ask about demo" in s) - started)
            answerable.append(tmux.wait(lambda s: "Ask about demo" in s and "opening" not in s)
                              - started)
            if run == runs - 1:
                keys = _terminal_keys(tmux, asked)
            tmux("send-keys", "-t", "bench", "C-q")
            time.sleep(0.5)
        finally:
            tmux("kill-server")
    return {"first_paint": summary(paint), "world_ready": summary(ready),
            "world_answerable": summary(answerable),
            "key_to_screen_while_answering": summary(keys)}


def _question_line(screen: str) -> str:
    return next((line for line in screen.splitlines() if line.startswith("▊  ")), "")


def _terminal_keys(tmux: Tmux, asked: list[str]) -> list[float]:
    """Type `x` while each answer is being built; time until it shows in the question box."""
    latencies = []
    for question in asked:
        tmux("send-keys", "-t", "bench", "-l", question)
        tmux("send-keys", "-t", "bench", "Enter")
        try:
            tmux.wait(lambda s: "answering" in s, timeout=3, poll=0.002)
        except TimeoutError:  # answered before the first look: nothing to measure
            continue
        typed = 0
        while "answering" in tmux.screen():
            typed += 1
            sent = time.perf_counter()
            tmux("send-keys", "-t", "bench", "-l", "x")
            try:
                shown = tmux.wait(lambda s, n=typed: _question_line(s).count("x") >= n,
                                  timeout=5, poll=0.002)
            except TimeoutError:
                break
            if "answering" in tmux.screen():  # only keys handled while the answer was running
                latencies.append(shown - sent)
        tmux("send-keys", "-t", "bench", "C-u")  # clear the typed x's
        tmux.wait(lambda s: "answering" not in s, timeout=30)
    return latencies


# -- headless, in this process -------------------------------------------------------------------
async def headless(home: Path, asked: list[str]) -> dict[str, object]:
    from textual import events

    from tui.app import LoreApp
    from tui.screens.main import MainScreen
    from tui.settings import load_settings

    started = time.perf_counter()
    app = LoreApp(load_settings(ROOT / "config.toml", home))
    idle, busy, lags = [], [], []
    async with app.run_test(size=(120, 36)) as pilot:
        while not isinstance(app.screen, MainScreen):
            await asyncio.sleep(0.001)
        main_screen = time.perf_counter() - started
        while app.conversation is None or app.opening:
            await asyncio.sleep(0.005)
        world_ready = time.perf_counter() - started  # shown: the user can read and type
        while app.warming:
            await asyncio.sleep(0.005)
        answerable = time.perf_counter() - started  # indexes and model loaded
        await pilot.pause()
        box = app.main.question
        for _ in range(20):
            idle.append(await _type(app, box))
        for question in asked:
            box.value = question
            app._driver.send_message(events.Key("enter", None))  # no waiting for the answer
            while not app.answering:
                await asyncio.sleep(0.001)
            lag = LoopLag()
            while app.answering:
                latency = await _type(app, box)
                if app.answering:
                    busy.append(latency)
                await asyncio.sleep(0.02)  # a fast typist: 50 keys/s
            lags.append(lag.stop())
            box.value = ""
    return {"main_screen_s": round(main_screen, 3), "world_ready_s": round(world_ready, 3),
            "world_answerable_s": round(answerable, 3),
            "key_idle": summary(idle), "key_while_answering": summary(busy),
            "loop_stall_while_answering": summary(lags)}


async def _type(app, box) -> float:
    """Send `x` as the terminal driver would; time until the question box holds it."""
    from textual import events

    before = box.value
    sent = time.perf_counter()
    app._driver.send_message(events.Key("x", "x"))
    while box.value == before:
        await asyncio.sleep(0)
    return time.perf_counter() - sent


class LoopLag:
    """How late a 5 ms sleep wakes up while an answer runs: the UI's worst stall."""

    def __init__(self, tick: float = 0.005) -> None:
        self.tick, self.worst = tick, 0.0
        self.task = asyncio.ensure_future(self._probe())

    async def _probe(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.tick)
            self.worst = max(self.worst, time.perf_counter() - before - self.tick)

    def stop(self) -> float:
        self.task.cancel()
        return self.worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="data dir (default: a temp dir, demo ingested)")
    parser.add_argument("--runs", type=int, default=3, help="terminal launches to time")
    parser.add_argument("--questions", type=int, default=10, help="questions to answer")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    home = args.home or Path(tempfile.mkdtemp(prefix="lore-bench-tui-"))
    try:
        prepare(home)
        asked = questions(args.questions)
        results: dict[str, object] = {"questions": len(asked)}
        # The real terminal first: after an in-process Textual run in this process, the app
        # launched in tmux came up with an empty screen (the headless run leaves state behind).
        if shutil.which("tmux"):
            results["terminal"] = terminal(home, args.runs, asked)
        else:
            results["terminal"] = "skipped: tmux is not installed"
        results["headless"] = asyncio.run(headless(home, asked))
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    print(json.dumps(results, ensure_ascii=False, indent=1 if not args.json else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
