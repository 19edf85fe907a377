"""docs/algorithm.md shows traces that the code really produces."""

from __future__ import annotations

from pathlib import Path

from dd_oracles import monotone, render_trace
from test_dd import EIGHT, table5_oracle
from wynot.dd import Event, dd_plus

DOC = Path(__file__).resolve().parent.parent / "docs" / "algorithm.md"


def trace(oracle, **options) -> str:
    events: list[Event[int]] = []
    dd_plus(EIGHT, oracle, observe=events.append, **options)
    return render_trace(EIGHT, events)


def test_algorithm_doc_holds_the_table1_trace() -> None:
    assert "```\n" + trace(monotone({7})) + "\n```" in DOC.read_text(encoding="utf-8")


def test_algorithm_doc_holds_the_table5_6_trace() -> None:
    assert "```\n" + trace(table5_oracle) + "\n```" in DOC.read_text(encoding="utf-8")


def test_algorithm_doc_holds_the_keep_passing_traces() -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert "```\n" + trace(monotone({7}), keep_passing=True) + "\n```" in doc
    assert "```\n" + trace(monotone({3, 6}), keep_passing=True, standalone=True) + "\n```" in doc
