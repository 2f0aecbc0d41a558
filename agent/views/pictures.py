"""The relations map as a picture or data: Graphviz DOT (laid out and drawn as SVG or PNG by
Graphviz's `dot`), Mermaid, JSON.

Graphviz does the layout: the centre sits in the middle of a left-to-right drawing, half of the
kinds of relation on each side, each kind in its own box, the second hop beyond the first. The
`graphviz` package writes the DOT text (quoting every name, so a name is never markup) and runs
`dot`, which is Debian's `graphviz` package (see the README). Co-occurrence is drawn apart, in a
dashed box named as such, with dashed lines: it is not a relation.

Every relation drawn is an edge whose SVG id is `rel:SOURCE|TYPE|TARGET` (tests/ and anyone
reading the SVG can find each one), and its tooltip is the sentence that states it.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import graphviz

from agent.views.relmap import KINDS, OTHER, Kind, RelationMap, Tie
from stores.errors import ConfigError, LoreError
from stores.lang import clip
from stores.models import chapter_number

MapFormat = Literal["svg", "png", "dot", "mermaid", "json"]
MAP_FORMATS: tuple[str, ...] = ("text", "svg", "png", "dot", "mermaid", "json")
FONTS = "Noto Sans CJK SC,Noto Sans,WenQuanYi Micro Hei,DejaVu Sans,sans-serif"
"""Fonts the pictures ask for: Chinese names need a CJK font where the picture is drawn."""
PALETTE = ("#b5651d", "#7b3294", "#c2185b", "#1b7837", "#2166ac", "#d7301f", "#4d4d4d",
           "#8c6d31", "#5e3c99", "#35978f", "#737373")
"""A colour per kind, in KINDS order (then OTHER): each kind's lines and box."""
MAX_SAID = 240
"""A relation's sentence is shown whole up to this many characters in the text map."""
TOGETHER_TITLE = "often in the same passages (co-occurrence, not a relation)"
SHAPES = {"person": "ellipse", "place": "house", "faction": "component", "item": "box",
          "event": "diamond"}


def kind_colour(kind: Kind) -> str:
    order = [k.key for k in (*KINDS, OTHER)]
    return PALETTE[order.index(kind.key) % len(PALETTE)]


def export_map(found: RelationMap, fmt: str) -> bytes:
    """The map in `fmt` (svg, png, dot, mermaid, json) as the bytes of a file."""
    if fmt == "text":
        return map_text(found).encode("utf-8")
    if fmt == "json":
        return map_json(found).encode("utf-8")
    if fmt == "mermaid":
        return map_mermaid(found).encode("utf-8")
    if fmt == "dot":
        return map_dot(found).encode("utf-8")
    if fmt in ("svg", "png"):
        return draw(map_dot(found), fmt)
    raise ConfigError(f"unknown map format {fmt!r}", where="--format",
                      hint=f"use one of: {', '.join(MAP_FORMATS)}")


def missing_font(fmt: str, names: str) -> str:
    """What to say when a PNG draws Chinese `names` where fontconfig lists no font for Chinese:
    they come out as empty boxes (a newcomer's trial on 呐喊: every name of the chart and the
    map, and nothing said). '' when nothing is missing, or when fontconfig cannot be asked. An
    SVG leaves the fonts to the viewer."""
    import shutil
    import subprocess

    from stores.lang import has_han

    fc_list = shutil.which("fc-list")
    if fmt != "png" or not has_han(names) or fc_list is None:
        return ""
    try:
        listed = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True,
                                text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    if listed.strip():
        return ""
    return ("no font for Chinese is installed, so Chinese names in a PNG come out as empty "
            "boxes: install one (Debian/Ubuntu: apt-get install fonts-noto-cjk; macOS has one), "
            "or export as SVG, which the browser draws with its own fonts")


def draw(source: str, fmt: str) -> bytes:
    """DOT text laid out and drawn by Graphviz's `dot` as SVG or PNG."""
    try:
        return graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        raise LoreError("Graphviz's dot is not installed: it draws the pictures",
                        where=f"--format {fmt}",
                        hint="install it (Debian/Ubuntu: apt-get install graphviz; macOS: brew "
                             "install graphviz), or export as dot, mermaid or json") from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else ""
        raise LoreError(f"Graphviz's dot could not draw the picture: {stderr.strip()[:200]}",
                        where=f"--format {fmt}",
                        hint="export as dot and run dot on it to see why") from None


# -- DOT ---------------------------------------------------------------------------------------
def _text(*lines: str) -> graphviz.quoting.NoHtml:
    """Label text from the story: never markup, backslashes kept, lines joined by newlines."""
    return graphviz.nohtml(r"\n".join(graphviz.escape(line) for line in lines if line))


def _node_id(name: str) -> graphviz.quoting.NoHtml:
    return graphviz.escape(name)


def tie_id(tie: Tie) -> str:
    """The SVG id of a relation's edge."""
    source, kind, target = tie.key
    return f"rel:{source}|{kind}|{target}"


def map_dot(found: RelationMap) -> str:
    """The map as Graphviz DOT: the centre in the middle, each kind of relation in a box,
    half of the kinds on each side, co-occurrence apart."""
    dot = graphviz.Graph("relations", graph_attr={
        "rankdir": "LR", "fontname": FONTS, "labelloc": "t", "fontsize": "18",
        "label": _text(f"Relations of {found.heading()}"), "nodesep": "0.25", "ranksep": "0.9",
        "newrank": "true", "bgcolor": "white", "tooltip": _text(found.heading())},
        node_attr={"fontname": FONTS, "style": "filled", "fillcolor": "#f7f7f7",
                   "color": "#555555", "fontsize": "13"},
        edge_attr={"fontname": FONTS, "fontsize": "11", "penwidth": "1.6"})
    centre = found.centre
    dot.node(_node_id(centre), _text(centre), shape="doubleoctagon", fillcolor="#ffe8a8",
             fontsize="18", penwidth="2", tooltip=_text(centre))
    placed = {centre}
    drawn: set[str] = set()
    left: dict[str, bool] = {}  # first-hop name → drawn left; a name in two kinds: its first
    for kind, links in found.groups:
        for link in links:
            left.setdefault(link.far, found.on_left(kind))
    beyond: dict[str, bool | None] = dict.fromkeys(left)  # second-hop name → its side
    for kind, links in found.groups:
        colour = kind_colour(kind)
        with dot.subgraph(name=f"cluster_{kind.key}") as box:
            box.attr(label=_text(kind.title), color=colour, fontcolor=colour, style="rounded",
                     fontname=FONTS, tooltip=_text(kind.title))
            for link in links:
                if link.far not in placed:
                    box.node(_node_id(link.far), _text(link.far), **_node_style(found, link.far))
                    placed.add(link.far)
    for link in found.links:
        if link.far not in placed:  # second hop: beyond the box of the one it hangs from
            dot.node(_node_id(link.far), _text(link.far), **_node_style(found, link.far))
            placed.add(link.far)
        side = left.get(link.far if link.hop == 1 else link.near, False)
        # A second-hop name is ranked beyond the first name it hangs from, on that side; its
        # ties to other first-hop names, and ties between two first-hop names, must not pull
        # names out of their places.
        ranked = link.hop == 1 or beyond.setdefault(link.far, side) == side
        for tie in link.ties:
            if tie_id(tie) not in drawn:
                drawn.add(tie_id(tie))
                _edge(dot, tie, kind_colour(link.kind), side, ranked)
    _together(dot, found, placed)
    return dot.source


def _node_style(found: RelationMap, name: str) -> dict[str, Any]:
    return {"shape": SHAPES.get(found.types.get(name, "other"), "box"),
            "tooltip": _text(f"{name} ({found.types.get(name, 'other')})")}


def _edge(dot: graphviz.Graph, tie: Tie, colour: str, left: bool, ranked: bool = True) -> None:
    """One relation, written far → near on the left side (so Graphviz ranks it before the
    centre) and near → far on the right; undirected either way. An edge that is not `ranked`
    leaves the layout to the others."""
    a, b = (tie.far, tie.near) if left else (tie.near, tie.far)
    said = tie.sentence or (f"declared in {tie.declared_in}" if tie.declared_in else "")
    dot.edge(_node_id(a), _node_id(b), label=_text(tie.role, tie.where),
             fontcolor=colour, **({"color": colour} if ranked else {}), id=graphviz.escape(tie_id(tie)),
             tooltip=_text(f"{tie.statement()} · {tie.where}: {said}"),
             labeltooltip=_text(said or tie.statement()),
             # between two names already placed: thin and faint, so the centre's lines lead
             **({} if ranked else {"constraint": "false", "penwidth": "0.8",
                                   "color": colour + "88"}))


def _together(dot: graphviz.Graph, found: RelationMap, placed: set[str]) -> None:
    others = [t for t in found.together if t.name not in placed]
    if not others:
        return
    with dot.subgraph(name="cluster_together") as box:
        box.attr(label=_text(TOGETHER_TITLE), style="dashed", color="#999999",
                 fontcolor="#666666", fontname=FONTS)
        for t in others:
            box.node(_node_id(t.name), _text(t.name), fillcolor="white", color="#999999",
                     fontcolor="#444444", **{k: v for k, v in _node_style(found, t.name).items()
                                             if k == "shape"})
    for t in others:
        dot.edge(_node_id(found.centre), _node_id(t.name), style="dashed", color="#999999",
                 fontcolor="#777777", label=_text(counted(t.passages, "passage")),
                 id=graphviz.escape(f"co:{found.centre}|{t.name}"))


# -- Mermaid -----------------------------------------------------------------------------------
def _mermaid_text(text: str) -> str:
    """A Mermaid label: quoted, with its quotes and markup characters as entities."""
    escaped = (text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;")
               .replace(">", "#gt;"))
    return f'"{escaped}"'


def _said(sentence: str) -> str:
    """The sentence as the text map quotes it: whole, or cut at a clause with "…"."""
    bare = sentence.strip("“”")
    cut = clip(bare, MAX_SAID)
    return cut if cut == bare else f"{cut} …"


def map_text(found: RelationMap) -> str:
    """The map as lines to read in a terminal: its heading, each kind with its people (what
    each is to the centre, the chapter, the sentence that states it), then who shares passages
    with the centre."""
    lines = [found.heading()]
    for kind, links in found.groups:
        lines.append(f"{kind.title}:")
        for link in links:
            tie = min(link.ties, key=lambda t: t.chapter)
            said = f" “{_said(tie.sentence)}”" if tie.sentence else ""
            lines.append(f"  {link.far} — {link.roles} ({link.where}){said}")
            lines += [f"    {onward.far} — {onward.roles} ({onward.where})"
                      for onward in link.onward]
    if not found.groups:
        # the reader's finding, not the text's: a sentence it could not read may state one
        lines.append("No relation was read from the text" + (
            f" up to chapter {found.horizon}." if found.horizon else "."))
    if found.together:
        lines.append(f"{TOGETHER_TITLE}: " + ", ".join(
            f"{t.name} ({t.passages})" for t in found.together))
    return "\n".join(lines) + "\n"


def map_mermaid(found: RelationMap) -> str:
    """The map as a Mermaid flowchart (GitHub, Obsidian and many wikis draw it): a subgraph per
    kind, co-occurrence apart with dotted links."""
    ids: dict[str, str] = {}

    def node(name: str) -> str:
        if name not in ids:
            ids[name] = f"n{len(ids)}"
        return ids[name]

    lines = ["flowchart LR", f"  {node(found.centre)}{{{{{_mermaid_text(found.centre)}}}}}"]
    drawn: list[str] = []
    for kind, links in found.groups:
        lines.append(f"  subgraph {kind.key}[{_mermaid_text(kind.title)}]")
        for link in links:
            if link.far not in ids:
                lines.append(f"    {node(link.far)}[{_mermaid_text(link.far)}]")
        lines.append("  end")
    for link in found.links:
        for tie in link.ties:
            if tie_id(tie) in drawn:
                continue
            drawn.append(tie_id(tie))
            if tie.far not in ids:
                lines.append(f"  {node(tie.far)}[{_mermaid_text(tie.far)}]")
            label = _mermaid_text(f"{tie.role} · {tie.where}")
            lines.append(f"  {node(tie.near)} ---|{label}| {node(tie.far)}")
    others = [t for t in found.together if t.name not in ids]
    if others:
        lines.append(f"  subgraph together[{_mermaid_text(TOGETHER_TITLE)}]")
        lines += [f"    {node(t.name)}[{_mermaid_text(t.name)}]" for t in others]
        lines.append("  end")
        lines += [f"  {node(found.centre)} -.-|{_mermaid_text(counted(t.passages, 'passage'))}| "
                  f"{node(t.name)}" for t in others]
    return "\n".join(lines) + "\n"


# -- JSON ------------------------------------------------------------------------------------
def map_json(found: RelationMap) -> str:
    """The map as data: every relation drawn (read from the end it hangs on) with its chapter
    and sentence, what the horizon hides, and co-occurrence apart."""
    relations = []
    seen: set[str] = set()
    for link in found.links:
        for tie in link.ties:
            if tie_id(tie) in seen:
                continue
            seen.add(tie_id(tie))
            relations.append({
                "id": tie_id(tie), "source": tie.source, "target": tie.target, "type": tie.type,
                "kind": link.kind.title, "hop": link.hop, "near": tie.near, "far": tie.far,
                "role": tie.role, "chapter": chapter_number(tie.chapter),
                "chunk_id": tie.chunk_id or None, "sentence": tie.sentence,
                "declared": tie.declared, "declared_in": tie.declared_in or None})
    return json.dumps({
        "centre": found.centre, "hops": found.hops, "horizon": found.horizon or None,
        "hidden_by_horizon": found.hidden, "relations": relations,
        "co_occurrence": {"note": "names in the same passages as the centre: not a relation",
                          "names": [{"name": t.name, "passages": t.passages,
                                     "first_chunk_id": t.chunk_id} for t in found.together]},
        "types": found.types}, ensure_ascii=False, indent=1) + "\n"


def counted(n: int, noun: str) -> str:
    """A count as a picture labels it: 1 passage, 3 passages."""
    return f"{n} {noun}{'s' if n != 1 else ''}"
