"""The lookahead's guesses (wynot.lookahead.Guesses, plan_ahead) and the evidence
they weigh (wynot.suspects): pure functions, checked on their own."""

from __future__ import annotations

import math
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from sample_diffs import clean_env

from dd_oracles import implies
from wynot.dd import dd_plus, split_evenly
from wynot.diffread import read_diff
from wynot.lookahead import FLOOR, TRUST, Guesses, Lookahead, plan_ahead, prior, remembered
from wynot.outcome import Outcome
from wynot.suspects import documentation, named, new_lines, suspicion, vocabulary, weights, words

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED
EIGHT = frozenset(range(8))


def test_candidates_narrow_by_failing_and_passing_configurations() -> None:
    guesses = Guesses(EIGHT)
    assert guesses.candidates([]) == EIGHT
    assert guesses.candidates([(frozenset(range(4)), FAIL)]) == frozenset(range(4))
    assert guesses.candidates([(frozenset(range(4)), PASS)]) == frozenset(range(4, 8))
    assert guesses.candidates([(frozenset(range(4)), UNRESOLVED)]) == EIGHT
    # in order; a narrowing that would leave nothing (the model is wrong) is ignored
    trail = [(frozenset({0, 1}), FAIL), (frozenset({0, 1, 5}), PASS), (frozenset({1}), PASS)]
    assert guesses.candidates(trail) == frozenset({0})
    assert guesses.candidates([(frozenset({0}), FAIL), (frozenset({3}), FAIL)]) == {0}


def test_without_evidence_the_odds_follow_the_share_of_the_candidates() -> None:
    guesses = Guesses(EIGHT)
    assert guesses.fails(frozenset(range(4)), []) == 0.5
    assert guesses.fails(frozenset(range(2)), []) == 0.25
    assert guesses.fails(EIGHT, []) == 1 - FLOOR  # holds every candidate: all but certain
    assert guesses.fails(frozenset(range(4)), [(frozenset(range(4)), PASS)]) == FLOOR
    # the kept-passing half of dd+ adds nothing: the question is decided by its new part
    kept = [(frozenset(range(4)), PASS)]
    assert guesses.fails(frozenset(range(6)), kept) == 0.5


def test_evidence_leans_the_odds_towards_the_suspect_side() -> None:
    guesses = Guesses(EIGHT, {6: 1.0})
    assert math.isclose(guesses.fails(frozenset(range(4, 8)), []), TRUST + (1 - TRUST) / 2)
    assert math.isclose(guesses.fails(frozenset(range(4)), []), (1 - TRUST) / 2)
    # once the suspect is cleared (its side passed), the sizes alone speak again
    assert guesses.fails(frozenset({0, 1, 2}), [(frozenset({6, 7}), PASS)]) == 0.5
    # weights are relative: two suspects alike split the evidence
    two = Guesses(EIGHT, {1: 3.0, 6: 3.0})
    assert math.isclose(two.fails(frozenset(range(4)), []), 0.5)


@given(question=st.frozensets(st.integers(0, 7)),
       trail=st.lists(st.tuples(st.frozensets(st.integers(0, 7)),
                                st.sampled_from([PASS, FAIL, UNRESOLVED])), max_size=6),
       suspects=st.dictionaries(st.integers(0, 9), st.floats(0.0, 1e6)),
       seen=st.lists(st.sampled_from([PASS, FAIL, UNRESOLVED]), max_size=5))
def test_odds_are_a_pure_probability_distribution(
        question: frozenset[int], trail: list[tuple[frozenset[int], Outcome]],
        suspects: dict[int, float], seen: list[Outcome]) -> None:
    answers = {frozenset({100 + i}): o for i, o in enumerate(seen)}
    guesses = Guesses(EIGHT, suspects)
    before = (list(trail), dict(suspects), dict(answers))
    odds = guesses.odds(question, trail, answers)
    assert odds == guesses.odds(question, trail, answers)  # the same inputs, the same odds
    assert (list(trail), dict(suspects), dict(answers)) == before  # nothing changed
    assert math.isclose(sum(odds.values()), 1.0)
    assert all(p > 0 for p in odds.values())
    assert odds[UNRESOLVED] == prior(answers)[UNRESOLVED]
    assert Guesses[int]().odds(question, trail, answers) == prior(answers)


def search_over(n: int) -> Callable[[Callable[[frozenset[int]], Outcome]], object]:
    def search(answer: Callable[[frozenset[int]], Outcome]) -> object:
        return dd_plus(list(range(n)), answer, keep_passing=True)
    return search


def questions(n: int, cause: int) -> list[frozenset[int]]:
    """What dd+ (keep passing) asks, in order, when ``cause`` alone fails."""
    asked: list[frozenset[int]] = []
    outcome = implies({cause}, [], unresolved_rate=0.0)

    def test(config: frozenset[int]) -> Outcome:
        asked.append(config)
        return outcome(config)
    dd_plus(list(range(n)), test, keep_passing=True)
    return asked


def test_with_the_right_suspect_the_plan_follows_the_search_down_its_chain() -> None:
    n, cause = 64, 45
    asked = questions(n, cause)
    assert len(asked) == 6
    right = plan_ahead(search_over(n), {}, 6, guesses=Guesses(frozenset(range(n)), {cause: 1}))
    assert right == asked  # six workers would run all six questions at once
    coin = plan_ahead(search_over(n), {}, 6)
    assert coin[0] == asked[0] and coin != asked  # a coin toss spreads over both answers
    assert len(set(coin) & set(asked)) < 6


def test_a_wrong_suspect_costs_order_never_the_first_question() -> None:
    n = 64
    wrong = plan_ahead(search_over(n), {}, 6, guesses=Guesses(frozenset(range(n)), {3: 1}))
    assert wrong[0] == questions(n, 45)[0]  # the question asked next is certain
    assert len(wrong) == 6


def test_words_split_identifiers_and_drop_endings() -> None:
    assert words("FAIL page_count(41, 20): hashes of FooBar") == {
        "fail", "page_count", "page", "count", "hash", "foobar", "foo", "bar"}
    assert "aligned" not in words("cells aligned") and "align" in words("cells aligned")


def test_new_lines_ignore_digits_and_repeats() -> None:
    good = "ok   page_count(41, 20) == 3\nran 12 tests in 0.03s\nok x\n"
    bad = "FAIL page_count(41, 20): expected 3, got 2\nran 12 tests in 0.05s\nok x\nok x\n"
    assert new_lines(bad, good) == ["FAIL page_count(41, 20): expected 3, got 2", "ok x"]
    assert new_lines(bad, "") == bad.splitlines()


def test_documentation_by_name() -> None:
    assert documentation("docs/usage.rst") and documentation("CHANGELOG")
    assert documentation("README.md") and not documentation("src/readme_parser.py")


def commit(repo: Path, files: dict[str, str], tag: str) -> None:
    for name, text in files.items():
        (repo / name).write_text(text)
    env = clean_env()
    for args in (["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm",
                                 tag], ["tag", tag]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def test_suspicion_points_at_the_changes_the_failure_names(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=clean_env())
    body = [f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(12)]
    paging = "def page_count(items, per):\n    return items // per\n\n"
    commit(tmp_path, {"lib.py": paging + "".join(body), "NOTES.md": "page count notes\n"},
           "good")
    changed = [b.replace("+ ", "- ") if i in (3, 9) else b for i, b in enumerate(body)]
    commit(tmp_path, {"lib.py": paging.replace("//", "/") + "".join(changed),
                      "NOTES.md": "page count notes, changed\n"}, "bad")
    diff = read_diff(tmp_path, "good", "bad")
    by_label = {c.label: c.id for c in diff.changes}
    paging_change = next(c.id for c in diff.changes if c.path == "lib.py"
                         and c.hunk is not None and c.hunk.old_start <= 2)
    notes = next(cid for label, cid in by_label.items() if label.startswith("NOTES.md"))
    good_out = "ok page_count(41, 20) == 3\nok helper_3\n"
    bad_out = "FAIL page_count(41, 20): expected 3, got 2.05\nok helper_3\n"
    scores = suspicion(diff, bad_out, good_out)
    assert max(scores, key=scores.__getitem__) == paging_change
    assert set(scores) == {paging_change, notes}  # helper_3's line is the same in both
    weighted = weights(diff, bad_out, good_out)
    assert weighted[notes] < weighted[paging_change] / 10  # documentation weighs little
    # a traceback frame on a line a change brought points at that change
    helper_9 = next(c.id for c in diff.changes if c.hunk is not None and "helper_9" in c.hunk.text
                    and c.id != paging_change)
    line = diff.changes[helper_9].hunk.new_start + 3  # type: ignore[union-attr]
    frame = f'Traceback (most recent call last):\n  File "/tmp/w/lib.py", line {line}, in f\n'
    located = suspicion(diff, frame + "ValueError\n", "")
    assert max(located, key=located.__getitem__) == helper_9
    # the changes' words computed ahead (while the premise runs) weigh the same
    assert weights(diff, bad_out, good_out, vocabulary(diff)) == weighted


def test_an_error_names_the_changes_that_share_its_rarest_new_words(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=clean_env())
    good = {"a.tcl": "package provide mime 1.6.2\nproc ::mime::a {} {}\n",
            "index.tcl": "package ifneeded mime 1.6.2 [list source a.tcl]\n",
            "b.tcl": "proc ::mime::b {} { return 1 }\n"}
    commit(tmp_path, good, "good")
    commit(tmp_path, {"a.tcl": good["a.tcl"].replace("1.6.2", "1.7.0"),
                      "index.tcl": good["index.tcl"].replace("1.6.2", "1.7.0"),
                      "b.tcl": "proc ::mime::b {} { return 2 }\n"}, "bad")
    diff = read_diff(tmp_path, "good", "bad")
    ids = {c.path: c.id for c in diff.changes}
    error = ("attempt to provide package mime 1.7.0 failed: package mime 1.6.2 provided "
             "instead\n    (\"package ifneeded mime 1.7.0\" script)\nchecked: ok\n")
    # index.tcl's change alone says "ifneeded"; "mime" and "package" are everywhere
    assert named(diff, error, "checked: ok\n", {ids["index.tcl"], ids["b.tcl"]}) == {
        ids["index.tcl"]}
    # the diff's words computed ahead name the same
    assert named(diff, error, "checked: ok\n", {ids["index.tcl"], ids["b.tcl"]},
                 vocabulary(diff)) == {ids["index.tcl"]}
    assert named(diff, "checked: ok\n", "checked: ok\n", set(ids.values())) == set()
    assert named(diff, "nothing in common\n", "", {ids["b.tcl"]}) == set()


def test_a_remembered_split_cuts_as_the_split_does_and_once_per_run() -> None:
    calls: list[tuple[tuple[int, ...], int]] = []

    def split(seq: Sequence[int], n: int) -> list[Sequence[int]]:
        calls.append((tuple(seq), n))
        return split_evenly(seq, n)

    kept = remembered(split)
    for seq, n in [(list(range(9)), 2), ((0, 1, 2, 3, 4, 5, 6, 7, 8), 2), (list(range(9)), 3)]:
        assert [list(p) for p in kept(seq, n)] == [list(p) for p in split_evenly(seq, n)]
    assert calls == [(tuple(range(9)), 2), (tuple(range(9)), 3)]
    assert dd_plus(list(range(40)), implies({7}, [], unresolved_rate=0.0), split=kept) == {7}


@given(st.sets(st.integers(0, 7), min_size=1), st.sets(st.integers(0, 7)))
def test_no_plan_before_a_question_answered_at_once(cause: set[int], ready: set[int]) -> None:
    """A question the oracle answers at once (``ready``) gets no plan before it; the
    answers, and so dd+'s result and questions, are those without a lookahead.
    Once the search ends, ``settle`` makes the plan the last questions skipped."""
    def oracle(config: frozenset[int]) -> Outcome:
        return FAIL if implies(cause, config) else PASS

    def search(answer: Callable[[frozenset[int]], Outcome]) -> object:
        return dd_plus(sorted(EIGHT), answer, split=split_evenly)

    asked: list[frozenset[int]] = []
    plans: list[Sequence[frozenset[int]]] = []

    def ask(config: frozenset[int]) -> Outcome:
        asked.append(config)
        return oracle(config)

    def announce(configs: Sequence[frozenset[int]]) -> None:
        plans.append(configs)

    at_once = {c for c in (frozenset(range(8)[i:j]) for i in range(8) for j in range(i, 9))
               if len(c) in ready}
    test = Lookahead(search, ask, announce, 4, ready=lambda config: config in at_once)
    found = dd_plus(sorted(EIGHT), test, split=split_evenly)
    plain: list[frozenset[int]] = []
    assert found == dd_plus(sorted(EIGHT), lambda c: plain.append(c) or oracle(c),
                            split=split_evenly)
    assert asked == plain
    before = [c for c in asked if c not in at_once]
    assert [plan[0] for plan in plans] == before  # a plan's first: the question asked
    test.settle()
    assert len(plans) == len(before) + (asked[-1] in at_once)
    assert plans[len(before):] in ([], [[]])  # the search has ended: nothing left to ask
