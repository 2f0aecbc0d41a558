"""Relations-map and presence-chart benchmark: how long an entity's map takes to open in the
app, to build, and to draw as SVG; and the presence chart's build time.

    .venv/bin/python bench/map.py --home DIR --world sanguo --entity 刘备 [--hops 1] [--runs 5]

The world must be ingested in DIR already (e.g. `LORE_EMBEDDER__BACKEND=use lore ingest
../shared/data/sanguo_yanyi/chapters --world sanguo` with LORE_HOME=DIR). Figures:
- app: the app under Textual's Pilot on that world, the entity tracked; from the key (Ctrl+R)
  to the map screen showing the entity's relations (the world warm, as after it opened);
- build: `agent.views.relmap.relation_map` alone, first call (cold: the typed relations and lore
  entries read) and again (warm);
- svg: laying out and drawing the map with Graphviz's dot;
- chart: `agent.views.presence.presence` of the entity and four others from its map and co-occurrence.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def ms(seconds: list[float]) -> str:
    return (f"median {statistics.median(seconds) * 1000:.0f} ms, "
            f"max {max(seconds) * 1000:.0f} ms over {len(seconds)}")


def build_figures(settings, world: str, entity: str, hops: int, runs: int) -> None:
    from agent.views.pictures import export_map
    from agent.views.presence import presence
    from agent.views.relmap import relation_map
    from agent.world.open_world import OpenWorld

    with OpenWorld.open(settings, world) as opened:
        retriever = opened.retriever
        _ = retriever.story, retriever.matcher, retriever.lexicon  # what the app warms
        started = time.perf_counter()
        found = relation_map(retriever, entity, hops)
        cold = time.perf_counter() - started
        warm, svg, charts = [], [], []
        for _ in range(runs):
            started = time.perf_counter()
            found = relation_map(retriever, entity, hops)
            warm.append(time.perf_counter() - started)
            started = time.perf_counter()
            try:
                export_map(found, "svg")
                svg.append(time.perf_counter() - started)
            except Exception as exc:  # no dot: the other figures still stand
                print(f"svg: {exc}")
            names = list(dict.fromkeys([found.centre, *(link.far for link in found.links),
                                        *(t.name for t in found.together)]))[:5]
            started = time.perf_counter()
            presence(retriever, names)
            charts.append(time.perf_counter() - started)
    print(f"map: {found.heading()}")
    print(f"build, first call: {cold * 1000:.0f} ms; again: {ms(warm)}")
    if svg:
        print(f"svg (dot): {ms(svg)}")
    print(f"presence chart of {', '.join(names)}: {ms(charts)}")


async def app_figures(settings, world: str, entity: str, runs: int) -> list[float]:
    from tests.tui.conftest import settle
    from tui.app import LoreApp
    from tui.screens.relmap import MapScreen

    app = LoreApp(settings, world=world)
    times = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.talking.track(entity)  # as Enter in the entity stack does
        app.main.show_timeline(entity, [])
        for _ in range(runs):
            started = time.perf_counter()
            await pilot.press("ctrl+r")
            while not (isinstance(app.screen, MapScreen) and app.screen.map is not None):
                await asyncio.sleep(0.002)
            await pilot.pause()  # drawn
            times.append(time.perf_counter() - started)
            await pilot.press("escape")
            await pilot.pause()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--world", default="sanguo")
    parser.add_argument("--entity", default="刘备")
    parser.add_argument("--hops", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from tui.settings import load_settings

    settings = load_settings(ROOT / "config.toml", args.home)
    times = asyncio.run(app_figures(settings, args.world, args.entity, args.runs))
    print(f"app, Ctrl+R to {args.entity}'s map on screen (80×24): {ms(times)}")
    build_figures(settings, args.world, args.entity, args.hops, args.runs)


if __name__ == "__main__":
    main()
