"""`lore ask`'s streamed answer, as a pipe or a log receives it."""

from __future__ import annotations

import pytest

from tui.commands.ask import TerminalStream


def test_a_pipe_is_told_which_answer_replaces_the_draft(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    # Monte Cristo (a newcomer's trial): a log held the same answer twice, the second under
    # "(Unsupported: …)", with nothing to say which one stands
    stream = TerminalStream("What happened to his father?")
    stream.answer.pieces.append("Mercédès is Albert de Morcerf's mother.")
    stream.finish("(Unsupported: the cited passages do not mention Albert de Morcerf.)\n"
                  "Mercédès is Albert de Morcerf's mother.")
    out = capsys.readouterr().out.splitlines()
    assert out == ["", "(the answer as checked against its citations:)",
                   "(Unsupported: the cited passages do not mention Albert de Morcerf.)",
                   "Mercédès is Albert de Morcerf's mother."]
    # an answer that goes on from its draft is only finished
    stream = TerminalStream("Who is Noirtier?")
    stream.answer.pieces.append("Noirtier is")
    stream.finish("Noirtier is Villefort's father.")
    assert capsys.readouterr().out == " Villefort's father.\n"
    # a Chinese question is told so in Chinese
    stream = TerminalStream("谁斩了马谡？")
    stream.answer.pieces.append("孔明斩了马谡。")
    stream.finish("（无依据：…）\n孔明斩了马谡。")
    assert capsys.readouterr().out.splitlines()[1] == "（以下是核对过引文的回答：）"
