"""The search's memo keeps large configurations as digests: same calls, same answers."""

from __future__ import annotations

import pytest

from wynot import dd
from wynot.dd import Outcome, dd_plus, ddmin


def _calls(search, causes: set[int], n: int) -> tuple[list[frozenset[int]], frozenset[int]]:
    asked: list[frozenset[int]] = []

    def oracle(config: frozenset[int]) -> Outcome:
        asked.append(config)
        if len(config) % 7 == 3:  # some configurations cannot be judged
            return Outcome.UNRESOLVED
        return Outcome.FAIL if causes <= config else Outcome.PASS

    return asked, frozenset(search(list(range(n)), oracle))


@pytest.mark.parametrize("search", [dd_plus, ddmin])
@pytest.mark.parametrize("causes", [{17}, {3, 250}, {40, 41, 300}])
def test_digests_change_nothing_but_memory(monkeypatch: pytest.MonkeyPatch, search,
                                           causes: set[int]) -> None:
    whole = _calls(search, causes, 400)
    monkeypatch.setattr(dd, "MEMO_KEEP", 0)
    monkeypatch.setattr(dd, "MEMO_DIGEST_ABOVE", 2)
    digested = _calls(search, causes, 400)
    assert digested == whole
    assert len(set(digested[0])) == len(digested[0])  # never the same configuration twice
