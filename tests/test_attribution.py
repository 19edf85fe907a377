"""Attribution per line: each changed line is credited to the commit that made it."""

from __future__ import annotations

import contextlib
import json
import threading

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot.diffread import read_diff
from wynot.history import OriginsAhead, attribute, origins


def lines(*words: str) -> bytes:
    return b"".join(w.encode() + b"\n" for w in words)


A = [f"a{i}" for i in range(1, 11)]
B = [f"k{i}" for i in range(1, 21)]
NEW = [f"n{i}" for i in range(1, 11)]


@pytest.fixture
def history(make_repo) -> GitRepo:
    """A new file mostly from one commit, a hunk mixing two commits, a deletion."""
    repo = make_repo("attribution")
    a, b = list(A), list(B)
    files = {"a.txt": lines(*a), "b.txt": lines(*b)}
    repo.commit(files, "base")
    repo.git("tag", "good")
    files["new.txt"] = lines(*NEW)
    repo.commit(files, "add new file")
    a[5:5] = ["x1", "x2", "x3", "x4"]
    files["a.txt"] = lines(*a)
    repo.commit(files, "insert x lines")
    del b[3:5]
    files["b.txt"] = lines(*b)
    repo.commit(files, "delete k4 and k5")
    a[9:10] = ["y1", "A6"]  # a6 replaced, y1 added next to the x lines
    files["a.txt"] = lines(*a)
    repo.commit(files, "rework a6")
    files["new.txt"] = lines(*NEW[:9], "N10")
    b[-1] = "K20"
    files["b.txt"] = lines(*b)
    repo.commit(files, "Linter fixes")
    repo.git("tag", "bad")
    return repo


def credited(repo: GitRepo) -> dict[str, dict[str, tuple[int, int]]]:
    """label -> subject -> (added, removed), for every change of good..bad."""
    diff = read_diff(repo.path, "good", "bad")
    subjects = {sha: repo.text("log", "-1", "--format=%s", sha)
                for sha in repo.text("rev-list", "good..bad").split()}
    credits = attribute(repo.path, diff, diff.changes)
    return {c.label: {subjects[sha]: n for sha, n in credits[c.id].items()}
            for c in diff.changes}


def test_each_line_is_credited_to_the_commit_that_made_it(history: GitRepo) -> None:
    by_label = credited(history)
    assert by_label["new.txt (add)"] == {"add new file": (9, 0), "Linter fixes": (1, 0)}
    [mixed] = [v for k, v in by_label.items() if k.startswith("a.txt")]
    assert mixed == {"insert x lines": (4, 0), "rework a6": (2, 1)}
    deletion, tail = sorted((k for k in by_label if k.startswith("b.txt")),
                            key=lambda k: int(k.split("-")[1].split(",")[0]))
    assert by_label[deletion] == {"delete k4 and k5": (0, 2)}
    assert by_label[tail] == {"Linter fixes": (1, 1)}


def test_origins_computed_ahead_serve_another_answer(history: GitRepo) -> None:
    """Origins computed ahead for some changes (dd+'s answer) give, for another set of
    changes (the answer finally reported), what attributing that set alone gives:
    those computed ahead taken over, the others attributed then."""
    diff = read_diff(history.path, "good", "bad")
    changes = sorted(diff.changes, key=lambda c: c.label)
    assert len(changes) >= 3
    ahead = OriginsAhead(history.path, diff, changes[:2])
    reported = [changes[1], changes[2]]  # one computed ahead, one not
    got = ahead.of(reported)
    assert set(got) == {c.id for c in reported}
    assert got == origins(history.path, diff, reported)


CHECK = ["--", "sh", "-c",
         "test -f new.txt && grep -q x1 a.txt && ! grep -q k4 b.txt && exit 1; exit 0"]


def test_report_and_json_list_every_commit_of_a_change(history: GitRepo) -> None:
    result = run_wynot("good", "bad", "--strategy", "hunks", "--json", "--no-cache", *CHECK,
                       cwd=history.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["schema"] == 2
    by_path = {c["path"]: c for c in report["changes"]}
    assert set(by_path) == {"new.txt", "a.txt", "b.txt"}
    new = by_path["new.txt"]
    assert new["commit"]["subject"] == "add new file"
    assert [(c["subject"], c["added"], c["removed"]) for c in new["commits"]] == [
        ("add new file", 9, 0), ("Linter fixes", 1, 0)]
    assert [c["subject"] for c in by_path["a.txt"]["commits"]] == [
        "insert x lines", "rework a6"]
    assert by_path["b.txt"]["commit"]["subject"] == "delete k4 and k5"
    text = run_wynot("good", "bad", "--strategy", "hunks", "--no-cache", *CHECK,
                     cwd=history.path).stdout
    add_sha = history.text("rev-parse", "bad~4")[:12]
    lint_sha = history.text("rev-parse", "bad")[:12]
    assert (f"# new.txt (add) - cause: without it the test passes (from {add_sha} add new "
            f"file, 9 lines; {lint_sha} Linter fixes, 1 line)") in text


def test_a_removal_taken_in_by_a_merge_is_credited_to_the_branch_commit(make_repo) -> None:
    from test_history import _merge
    repo = make_repo("merged-removal")
    base = repo.commit({"f.txt": lines("x", "y", "z"), "other.txt": b"0\n"}, "base")
    repo.git("tag", "good")
    repo.commit({"f.txt": lines("x", "z"), "other.txt": b"0\n"}, "branch: drop y")
    branch = repo.text("rev-parse", "HEAD")
    repo.git("reset", "-q", "--hard", base)
    main = repo.commit({"f.txt": lines("x", "y", "z"), "other.txt": b"1\n"}, "main: edit other")
    _merge(repo, main, branch, {"f.txt": lines("x", "z"), "other.txt": b"1\n"}, "merge branch")
    repo.git("tag", "bad")
    by_label = credited(repo)
    assert by_label["f.txt:-1,3"] == {"branch: drop y": (0, 1)}


def test_origins_ahead_are_waited_for_when_the_run_fails(history: GitRepo) -> None:
    """A run that ends in an error (an interrupt, a failed verification) waits for the
    attribution started ahead: no thread of it, nor its ``git blame``, outlives it."""
    diff = read_diff(history.path, "good", "bad")
    ahead = OriginsAhead(history.path, diff, list(diff.changes))
    with pytest.raises(KeyboardInterrupt), contextlib.ExitStack() as finishing:
        finishing.push(ahead.settle)  # as the search pushes it
        raise KeyboardInterrupt
    assert not any(t.name == "wynot-origins" and t.is_alive() for t in threading.enumerate())
