"""The history samples (case.json "kind": "history") hold what their case.json promises,
checked with real git and real test runs, no wynot code involved: make_repo builds them
reproducibly; the commits that cannot be tested exit 125; `git bisect run` names the
first bad commit after the recorded number of tests; and the expected hunks of that
commit's diff make the test fail on the diff's GOOD side, while each of them alone
(and, for the merge, each branch's share of them) does not.

Testing all 211 commits of long-history takes about a minute on a busy machine; by
default a fixed selection of them is tested (every untestable commit, the commit that
repairs it, the first bad commit and its neighbours, every tenth commit).
WYNOT_TEST_EVERY_COMMIT=1 tests them all.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sample_diffs import (
    FAIL,
    PASS,
    TIMEOUT,
    UNRESOLVED,
    FileDiff,
    argv,
    clean_env,
    diff,
    git,
    labels_of,
    patch_for,
)
from scripts import MAKE_REPO, SAMPLES, make_repo

HISTORY = make_repo.sample_names("history")

WORKERS = 3
EVERY_COMMIT = os.environ.get("WYNOT_TEST_EVERY_COMMIT", "") not in ("", "0")


def run_test(tree: Path, case: dict[str, Any]) -> tuple[str, str]:
    """(outcome, output) of the case's test in `tree`, by the outcome contract."""
    assert case["build"] is None  # neither history sample has a build step
    done = subprocess.run(
        argv(case["test"]),
        cwd=tree,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    if done.returncode == 0:
        return PASS, done.stdout
    return (UNRESOLVED if done.returncode == 125 else FAIL), done.stdout


class Scratch:
    """A clone of a built sample in which commits are checked out and hunks applied."""

    def __init__(self, repo: Path, path: Path, case: dict[str, Any]) -> None:
        git(repo.parent, "clone", "-q", str(repo), str(path))
        self.path, self.case = path, case
        for ref in git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads").split():
            if ref != make_repo.BRANCH:
                git(path, "branch", "-q", ref, f"origin/{ref}")

    def checkout(self, rev: str) -> None:
        git(self.path, "checkout", "-q", "--detach", "-f", rev)
        git(self.path, "clean", "-q", "-f", "-d", "-x")

    def rev(self, name: str) -> str:
        return git(self.path, "rev-parse", "--verify", name + "^{commit}").strip()

    def outcome(self, base: str, files: list[FileDiff], keep: Iterable[str]) -> tuple[str, str]:
        """The outcome of the hunks `keep` of `files` (a diff from `base`) applied to `base`."""
        keep = set(keep)
        assert keep <= set(labels_of(files)), keep - set(labels_of(files))
        self.checkout(base)
        patch = patch_for(files, keep)
        if patch:
            git(self.path, "apply", "--whitespace=nowarn", "-", stdin=patch)
        return run_test(self.path, self.case)


def subjects(repo: Path, *args: str) -> dict[str, str]:
    """sha -> subject of the commits `git rev-list` names for `args`, oldest first."""
    out = git(repo, "log", "--reverse", "--format=%H %s", *args)
    return dict(line.split(" ", 1) for line in out.splitlines())


def commit_by_subject(repo: Path, subject: str) -> str:
    found = [sha for sha, text in subjects(repo, "bad").items() if text == subject]
    assert len(found) == 1, f"{subject!r}: {len(found)} commits"
    return found[0]


# --- fixtures ---------------------------------------------------------------------------



@pytest.fixture
def scratch(request: pytest.FixtureRequest, built: dict[str, Path], tmp_path: Path) -> Scratch:
    name = request.node.callspec.params["name"]
    return Scratch(built[name], tmp_path / "scratch", make_repo.load_case(name))


# --- make_repo --------------------------------------------------------------------------


def test_history_samples_are_listed_apart_from_the_others() -> None:
    assert HISTORY == ["long-history", "merge-branches"]
    assert not set(HISTORY) & set(make_repo.sample_names())  # the good/ + bad/ samples
    assert make_repo.sample_names("all") == sorted(make_repo.sample_names() + HISTORY)
    listed = subprocess.run(
        [sys.executable, str(MAKE_REPO), "--list", "--kind", "history"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed == HISTORY
    with pytest.raises(make_repo.SampleError, match="unknown kind"):
        make_repo.sample_names("pairs")


@pytest.mark.parametrize("name", HISTORY)
def test_case_json_is_well_formed(name: str) -> None:
    case = make_repo.load_case(name)
    assert case["kind"] == "history" and make_repo.sample_kind(name) == "history"
    folder = SAMPLES / name
    assert not list(folder.rglob(".git")), "samples are plain files"
    assert not (folder / "good").exists() and not (folder / "bad").exists()
    patches = sorted(p.name for p in (folder / "commits").iterdir())
    assert len(patches) == case["commits"]
    assert all(re.fullmatch(r"\d{4}-[a-z0-9-]+\.patch", p) for p in patches), patches
    assert len(set(case["untestable_commits"])) == len(case["untestable_commits"])
    strategy = case["strategy_expected"]
    assert len(set(strategy["expected"])) == len(strategy["expected"])
    assert set(strategy.get("expected_branches", {})) <= set(strategy["expected"])


@pytest.mark.parametrize("name", HISTORY)
def test_the_generator_wrote_the_committed_files(name: str, tmp_path: Path) -> None:
    """generate_history.py, run again, writes exactly the commit files in the sample."""
    done = subprocess.run(
        [sys.executable, str(SAMPLES / name / "generate_history.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        env=clean_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    committed = SAMPLES / name / "commits"
    names = sorted(p.name for p in committed.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == names
    for patch in names:
        assert (tmp_path / patch).read_bytes() == (committed / patch).read_bytes(), patch


@pytest.mark.parametrize("name", HISTORY)
def test_make_repo_is_reproducible(name: str, built: dict[str, Path], tmp_path: Path) -> None:
    again = tmp_path / "again"
    done = subprocess.run(
        [sys.executable, str(MAKE_REPO), name, str(again)],
        capture_output=True,
        text=True,
        env=clean_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == SAMPLES / name / "case.json"
    refs = "--format=%(objectname) %(refname)"
    assert git(again, "for-each-ref", refs) == git(built[name], "for-each-ref", refs)
    everything = git(again, "rev-list", "--all")
    assert everything == git(built[name], "rev-list", "--all")
    assert len(everything.split()) == make_repo.load_case(name)["commits"]
    # HEAD is main at bad, checked out and clean; good is the first commit
    good, bad, head = git(again, "rev-parse", "good", "bad", "HEAD").split()
    assert head == bad
    assert git(again, "symbolic-ref", "HEAD") == "refs/heads/main\n"
    assert git(again, "rev-list", "--max-parents=0", "bad").split() == [good]
    assert git(again, "status", "--porcelain", "--ignored") == ""
    assert not [path for path in git(again, "ls-files").split() if path.endswith(".pyc")]


def write_commits(folder: Path, commits: list[tuple[dict[str, str], dict[str, str]]]) -> None:
    """Commit files for (headers, tree) pairs, each tree diffed against its parent's."""
    folder.mkdir()
    trees: dict[str, dict[str, str]] = {}  # branch -> its tree
    for number, (headers, tree) in enumerate(commits, start=1):
        branch = headers.get("Branch", "main")
        before = trees.get(branch, trees.get(headers.get("Branch-from", ""), {}))
        if "Merge" in headers:
            before = tree  # a merge's file has no diff
        text = make_repo.format_commit_patch(headers, "", before, tree)
        (folder / f"{number:04d}-commit.patch").write_text(text, encoding="utf-8")
        trees[branch] = tree


def lines(*numbers: int, changed: dict[int, str] | None = None) -> str:
    return "".join((changed or {}).get(n, f"line {n}") + "\n" for n in numbers)


def test_read_history_adds_changes_deletes_and_merges(tmp_path: Path) -> None:
    def who(day: int, subject: str, **more: str) -> dict[str, str]:
        return {"From": "A U Thor <a@example.com>", "Date": f"2024-05-0{day} 10:00:00 +0200",
                **more, "Subject": subject}  # fmt: skip

    base = {"a.txt": lines(*range(1, 21)), "gone.txt": "bye\n"}
    side = {"a.txt": lines(*range(1, 21), changed={2: "two"})}
    main = {**base, "a.txt": lines(*range(1, 21), changed={19: "nineteen"}), "c.txt": "new\n"}
    merged = {"a.txt": lines(*range(1, 21), changed={2: "two", 19: "nineteen"}), "c.txt": "new\n"}
    write_commits(
        tmp_path / "commits",
        [
            (who(1, "first"), base),
            (who(2, "side", Branch="topic", **{"Branch-from": "main"}), side),
            (who(3, "main"), main),
            (who(4, "Merge branch 'topic'", Merge="topic"), merged),
        ],
    )
    commits = make_repo.read_history(tmp_path / "commits")
    assert [c.tree for c in commits] == [base, side, main, merged]
    assert [c.parents for c in commits] == [(), (0,), (0,), (2, 1)]
    assert [c.branch for c in commits] == ["main", "topic", "main", "main"]
    repo = tmp_path / "repo"
    repo.mkdir()
    make_repo._make_history_repo(tmp_path, repo)
    assert git(repo, "rev-list", "--count", "bad") == "4\n"
    assert git(repo, "log", "-1", "--format=%s", "bad^2") == "side\n"
    assert git(repo, "show", "bad:a.txt") == merged["a.txt"]
    assert git(repo, "status", "--porcelain") == ""


def test_read_history_refuses_what_it_cannot_apply(tmp_path: Path) -> None:
    def commit(subject: str, **more: str) -> dict[str, str]:
        return {"From": "A U Thor <a@example.com>", "Date": "2024-05-01 10:00:00 +0000",
                **more, "Subject": subject}  # fmt: skip

    first, two = {"a.txt": lines(1, 2, 3)}, {"a.txt": lines(1, 2, 3, changed={2: "two"})}
    stale = tmp_path / "stale"  # a hunk whose lines are not there
    write_commits(stale, [(commit("first"), first), (commit("second"), two)])
    text = make_repo.format_commit_patch(commit("first"), "", {}, {"a.txt": "x\n"})
    (stale / "0001-commit.patch").write_text(text, encoding="utf-8")
    with pytest.raises(make_repo.SampleError, match="does not apply"):
        make_repo.read_history(stale)

    conflict = tmp_path / "conflict"  # both branches change the same line
    write_commits(
        conflict,
        [
            (commit("first"), first),
            (commit("topic", Branch="t", **{"Branch-from": "main"}), two),
            (commit("main"), {"a.txt": lines(1, 2, 3, changed={2: "deux"})}),
            (commit("merge", Merge="t"), first),
        ],
    )
    with pytest.raises(make_repo.SampleError, match="a.txt: the branches conflict"):
        make_repo.read_history(conflict)

    orphan = tmp_path / "orphan"  # a new branch must say where it starts
    write_commits(orphan, [(commit("first"), first), (commit("topic", Branch="t"), two)])
    with pytest.raises(make_repo.SampleError, match="Branch-from"):
        make_repo.read_history(orphan)


def test_long_history_is_linear_and_long(built: dict[str, Path]) -> None:
    repo = built["long-history"]
    case = make_repo.load_case("long-history")
    log = subjects(repo, "bad")
    assert len(log) == case["commits"] >= 200
    assert git(repo, "rev-list", "--merges", "bad") == ""
    assert len(set(log.values())) == len(log), "subjects name commits"
    assert git(repo, "rev-list", "--count", "good..bad") == f"{len(log) - 1}\n"
    authors = set(git(repo, "log", "--format=%an <%ae>", "bad").splitlines())
    assert len(authors) >= 3
    subject_list = list(log.values())
    first_bad = subject_list.index(case["strategy_expected"]["first_bad_commit_subject"])
    assert len(log) // 4 < first_bad < len(log) * 3 // 4, "the first bad commit is in the middle"
    untestable = [subject_list.index(s) for s in case["untestable_commits"]]
    assert len(untestable) >= 10
    # spread out, and some of them right next to the first bad commit
    assert min(untestable) < len(log) // 10 and max(untestable) > len(log) * 7 // 10
    assert first_bad + 1 in untestable and first_bad - 2 in untestable
    assert first_bad - 1 not in untestable, "git bisect can name the first bad commit"


def test_merge_branches_has_two_no_ff_merges_of_branches_from_one_base(
    built: dict[str, Path], tmp_path: Path
) -> None:
    repo = built["merge-branches"]
    case = make_repo.load_case("merge-branches")
    first_parent = list(subjects(repo, "--first-parent", "bad"))
    merges = git(repo, "rev-list", "--merges", "--first-parent", "--reverse", "bad").split()
    assert (
        len(merges) == 2 and merges[1] == first_parent[-1] == git(repo, "rev-parse", "bad").strip()
    )
    assert len(first_parent) - len(merges) >= 3, "main has a few commits of its own"
    first, second = merges
    # the two branches start at the same commit of main
    base = git(repo, "merge-base", f"{first}^2", f"{second}^2").strip()
    assert base in first_parent
    assert git(repo, "merge-base", f"{second}^1", f"{second}^2").strip() == base
    assert git(repo, "log", "-1", "--format=%s", second) == (
        case["strategy_expected"]["first_bad_commit_subject"] + "\n"
    )
    # each merge is exactly the commit `git merge --no-ff` makes (same id)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    for merge in merges:
        fields = git(clone, "log", "-1", "--date=raw", "--format=%an%n%ae%n%ad%n%B", merge)
        name, email, date, message = fields.split("\n", 3)
        env = clean_env()
        for role in ("AUTHOR", "COMMITTER"):
            env.update({f"GIT_{role}_NAME": name, f"GIT_{role}_EMAIL": email})
            env[f"GIT_{role}_DATE"] = date
        git(clone, "checkout", "-q", "--detach", f"{merge}^1")
        git(clone, "merge", "-q", "--no-ff", "-m", message.strip(), f"{merge}^2", env=env)
        assert git(clone, "rev-parse", "HEAD").strip() == merge


# --- what each case promises --------------------------------------------------------------


def commits_to_test(log: list[str], case: dict[str, Any]) -> list[int]:
    """Indexes into `log` (first-parent subjects, oldest first) of the commits to test."""
    if EVERY_COMMIT or len(log) <= 30:
        return list(range(len(log)))
    chosen = {0, len(log) - 1, *range(0, len(log), 10)}
    first_bad = log.index(case["strategy_expected"]["first_bad_commit_subject"])
    chosen |= set(range(first_bad - 3, first_bad + 4))
    for subject in case["untestable_commits"]:
        index = log.index(subject)
        chosen.add(index)
        while log[index] in case["untestable_commits"]:  # and the commit that repairs it
            index += 1
        chosen.add(index)
    return sorted(chosen)


@pytest.mark.slow
@pytest.mark.parametrize("name", HISTORY)
def test_commits_pass_fail_or_cannot_be_tested_as_promised(
    name: str, built: dict[str, Path], tmp_path: Path
) -> None:
    """Before the first bad commit the test passes, from it on it fails, except in the
    untestable commits (exit 125). Along the first-parent chain; for merge-branches the
    commits on the feature branches are tested too (they all pass)."""
    repo = built[name]
    case = make_repo.load_case(name)
    log = subjects(repo, "--first-parent", "bad")
    shas, names = list(log), list(log.values())
    first_bad = names.index(case["strategy_expected"]["first_bad_commit_subject"])
    want = {}
    for i, subject in enumerate(names):
        if subject in case["untestable_commits"]:
            want[shas[i]] = UNRESOLVED
        else:
            want[shas[i]] = PASS if i < first_bad else FAIL
    side_commits = [sha for sha in subjects(repo, "bad") if sha not in log]
    want.update(dict.fromkeys(side_commits, PASS))
    todo = [shas[i] for i in commits_to_test(names, case)] + side_commits

    trees: list[Path] = []
    for worker in range(WORKERS):
        tree = tmp_path / f"tree{worker}"
        git(repo, "worktree", "add", "-q", "--detach", str(tree), "bad")
        trees.append(tree)
    free = list(trees)
    lock = threading.Lock()

    def run_commit(sha: str) -> tuple[str, str, str]:
        with lock:
            tree = free.pop()
        try:
            git(tree, "checkout", "-q", "--detach", "-f", sha)
            git(tree, "clean", "-q", "-f", "-d", "-x")
            outcome, output = run_test(tree, case)
            return sha, outcome, output
        finally:
            with lock:
                free.append(tree)

    try:
        with ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(run_commit, todo))
    finally:
        for tree in trees:
            git(repo, "worktree", "remove", "--force", str(tree))
    wrong = [
        f"{log.get(sha, sha)}: {outcome}, not {want[sha]}\n{output[-2000:]}"
        for sha, outcome, output in results
        if outcome != want[sha]
    ]
    assert not wrong, "\n".join(wrong)
    tested_untestable = [sha for sha, outcome, _ in results if outcome == UNRESOLVED]
    assert len(tested_untestable) == len(case["untestable_commits"])
    if name == "long-history":
        assert len(tested_untestable) >= 10
        # the failing commits fail in the same test
        failing = {
            tuple(sorted(re.findall(r"^(?:FAIL|ERROR): (\S+)", output, re.MULTILINE)))
            for _, outcome, output in results
            if outcome == FAIL
        }
        assert failing == {("test_text_that_fits_is_kept",)}


def bisect(scratch: Scratch) -> tuple[str, int, str]:
    """`git bisect run` in the scratch clone: (first bad commit, commits tested, log)."""
    case = scratch.case
    git(scratch.path, "bisect", "start", *case["git_bisect_options"], "bad", "good")
    done = subprocess.run(
        ["git", "bisect", "run", *argv(case["test"])],
        cwd=scratch.path,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"^([0-9a-f]{40}) is the first bad commit", done.stdout, re.MULTILINE)
    assert found, done.stdout
    log = git(scratch.path, "bisect", "log")
    git(scratch.path, "bisect", "reset")
    marks = {scratch.rev("good"), scratch.rev("bad")}
    tested = [
        sha
        for sha in re.findall(r"^git bisect (?:good|bad|skip) ([0-9a-f]{40})$", log, re.MULTILINE)
        if sha not in marks
    ]
    return found[1], len(tested), log


@pytest.mark.slow
@pytest.mark.parametrize("name", HISTORY)
def test_git_bisect_run_names_the_first_bad_commit(name: str, scratch: Scratch) -> None:
    first_bad, tested, log = bisect(scratch)
    subject = git(scratch.path, "log", "-1", "--format=%s", first_bad).strip()
    assert subject == scratch.case["strategy_expected"]["first_bad_commit_subject"], log
    assert tested == scratch.case["git_bisect_tests"], log
    if name == "long-history":
        assert "git bisect skip" in log  # it had to step around untestable commits
    else:
        assert first_bad == scratch.rev("bad")  # the second merge


def check_expected_hunks(
    scratch: Scratch,
    base: str,
    files: list[FileDiff],
    expected: list[str],
    complement: str = PASS,
) -> None:
    """`expected` fails applied to `base`, each of its hunks alone does not, and all the
    other hunks of the diff without it give `complement` (they do not fail)."""
    every = labels_of(files)
    assert set(expected) <= set(every), every
    outcome, output = scratch.outcome(base, files, expected)
    assert outcome == FAIL, output
    if len(expected) > 1:
        for label in expected:
            outcome, output = scratch.outcome(base, files, [label])
            assert outcome != FAIL, f"{label} alone: {output}"
    outcome, output = scratch.outcome(base, files, set(every) - set(expected))
    assert outcome == complement, f"all but the expected hunks: {output}"


@pytest.mark.slow
def test_long_history_expected_hunks(built: dict[str, Path], tmp_path: Path) -> None:
    case = make_repo.load_case("long-history")
    scratch = Scratch(built["long-history"], tmp_path / "scratch", case)
    strategy = case["strategy_expected"]
    assert strategy["hunk_diff"] == "first_bad^..first_bad"
    first_bad = commit_by_subject(scratch.path, strategy["first_bad_commit_subject"])
    files = diff(scratch.path, f"{first_bad}^", first_bad)
    assert 5 <= len(labels_of(files)) <= 15 and 2 <= len(files) <= 4
    # the whole diff applied to the commit before reproduces the first bad commit
    scratch.outcome(f"{first_bad}^", files, labels_of(files))
    git(scratch.path, "add", "-A")
    assert git(scratch.path, "diff", "--cached", "--stat", first_bad) == ""
    check_expected_hunks(scratch, f"{first_bad}^", files, strategy["expected"])
    # some hunks need others: alone they cannot be tested
    alone = [scratch.outcome(f"{first_bad}^", files, [label])[0] for label in labels_of(files)]
    assert alone.count(UNRESOLVED) >= 3, alone


@pytest.mark.slow
def test_merge_branches_expected_hunks(built: dict[str, Path], tmp_path: Path) -> None:
    case = make_repo.load_case("merge-branches")
    scratch = Scratch(built["merge-branches"], tmp_path / "scratch", case)
    strategy = case["strategy_expected"]
    merge = commit_by_subject(scratch.path, strategy["first_bad_commit_subject"])
    assert merge == scratch.rev("bad")

    # against the merge base of the two branches: hunks from both
    assert strategy["hunk_diff"] == "merge-base..merge"
    base = git(scratch.path, "merge-base", f"{merge}^1", f"{merge}^2").strip()
    files = diff(scratch.path, base, merge)
    expected = strategy["expected"]
    # Without the expected hunks the merge cannot be tested: read_rows() then names
    # DEFAULT_DELIMITER, which only the first expected hunk defines.
    check_expected_hunks(scratch, base, files, expected, complement=UNRESOLVED)
    by_branch: dict[str, list[str]] = {}
    for label, branch in strategy["expected_branches"].items():
        by_branch.setdefault(branch, []).append(label)
    assert sorted(by_branch) == sorted(
        ref
        for ref in git(
            scratch.path, "for-each-ref", "--format=%(refname:short)", "refs/heads"
        ).split()
        if ref != make_repo.BRANCH
    )
    assert sorted(label for labels in by_branch.values() for label in labels) == sorted(expected)
    hunks = {label: lines for file in files for label, lines in file.hunks}
    for branch, labels in by_branch.items():
        # the hunk's changed lines are changes of that branch
        own = git(scratch.path, "diff", "-U0", base, branch).splitlines()
        for label in labels:
            changed = [line.rstrip("\n") for line in hunks[label][1:] if line[:1] in "+-"]
            assert set(changed) <= set(own), f"{label} is not from {branch}"
        outcome, output = scratch.outcome(base, files, labels)
        assert outcome == PASS, f"the hunks of {branch} alone: {output}"

    # against the first parent of the merge: the hunk of the second branch
    assert strategy["first_parent_diff"] == "merge^1..merge"
    files = diff(scratch.path, f"{merge}^1", merge)
    check_expected_hunks(scratch, f"{merge}^1", files, strategy["expected_first_parent"])
