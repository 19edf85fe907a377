"""The sample repositories hold what their case.json promises, checked with real git and
real test runs (no wynot code involved): GOOD passes, BAD fails, the expected changes
alone make GOOD fail, and removing any one of them makes it pass again."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from sample_diffs import (
    FAIL,
    PASS,
    TIMEOUT,
    UNRESOLVED,
    argv,
    clean_env,
    diff,
    git,
    labels_of,
    patch_for,
)
from scripts import MAKE_REPO, SAMPLES, make_repo

NAMES: list[str] = make_repo.sample_names()

# (fewest changes, most changes, fewest files, most files) between `good` and `bad`
SIZES = {
    "pytest-package": (25, 40, 6, 10),
    "interference": (6, 12, 3, 6),
    "c-rename": (6, 16, 4, 10),
}


# --- running a configuration ------------------------------------------------------------


def fail_pattern(case: dict[str, Any]) -> str | None:
    options: list[str] = case["options"]
    for i, option in enumerate(options):
        if option == "--fail-pattern":
            return options[i + 1]
        if option.startswith("--fail-pattern="):
            return option.split("=", 1)[1]
    return None


def run(command: list[str], tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv(command),
        cwd=tree,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def run_tree(tree: Path, case: dict[str, Any]) -> tuple[str, str]:
    """Build (if the case has a build step) and test the working tree: (outcome, output),
    classified as DESIGN.md's outcome table says."""
    if case["build"]:
        build = run(case["build"], tree)
        if build.returncode != 0:
            return UNRESOLVED, build.stdout
    test = run(case["test"], tree)
    if test.returncode == 0:
        return PASS, test.stdout
    if test.returncode == 125:
        return UNRESOLVED, test.stdout
    pattern = fail_pattern(case)
    if pattern is not None and not re.search(pattern, test.stdout, re.MULTILINE):
        return UNRESOLVED, test.stdout
    return FAIL, test.stdout


class Scratch:
    """A clone of a sample repository in which configurations are applied to GOOD."""

    def __init__(self, repo: Path, path: Path, case: dict[str, Any]) -> None:
        git(repo.parent, "clone", "-q", str(repo), str(path))
        self.path, self.case = path, case
        self.files = diff(path, "good", "bad")

    def checkout(self, rev: str) -> None:
        git(self.path, "checkout", "-q", "--detach", "-f", rev)
        git(self.path, "clean", "-q", "-f", "-d", "-x")

    def apply(self, keep: Iterable[str]) -> None:
        self.checkout("good")
        keep = set(keep)
        assert keep <= set(labels_of(self.files)), keep - set(labels_of(self.files))
        patch = patch_for(self.files, keep)
        if patch:
            git(self.path, "apply", "--whitespace=nowarn", "-", stdin=patch)

    def outcome(self, keep: Iterable[str]) -> tuple[str, str]:
        self.apply(keep)
        return run_tree(self.path, self.case)

    def rev_outcome(self, rev: str) -> tuple[str, str]:
        self.checkout(rev)
        return run_tree(self.path, self.case)



@pytest.fixture
def scratch(request: pytest.FixtureRequest, built: dict[str, Path], tmp_path: Path) -> Scratch:
    name = request.node.callspec.params["name"]
    return Scratch(built[name], tmp_path / "scratch", make_repo.load_case(name))


# --- make_repo.py ------------------------------------------------------------------------


def test_the_samples_are_there() -> None:
    assert set(SIZES) <= set(NAMES)
    listed = subprocess.run(
        [sys.executable, str(MAKE_REPO), "--list"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert listed == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_case_json_is_well_formed(name: str) -> None:
    case = make_repo.load_case(name)
    assert len(set(case["expected"])) == len(case["expected"])
    assert (SAMPLES / name / "good").is_dir() and (SAMPLES / name / "bad").is_dir()
    assert not list((SAMPLES / name).rglob(".git")), "samples are plain files"


def test_make_repo_cli_builds_a_reproducible_repository(tmp_path: Path) -> None:
    shas = []
    for dest in (tmp_path / "one", tmp_path / "two"):
        done = subprocess.run(
            [sys.executable, str(MAKE_REPO), "interference", str(dest)],
            capture_output=True,
            text=True,
            env=clean_env(),
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert Path(done.stdout.strip()) == SAMPLES / "interference" / "case.json"
        shas.append(git(dest, "rev-parse", "good", "bad", "HEAD").split())
    good, bad, head = shas[0]
    assert shas[0] == shas[1] and head == bad
    assert git(dest, "rev-parse", "bad^") == good + "\n"
    assert git(dest, "symbolic-ref", "HEAD") == "refs/heads/main\n"
    assert git(dest, "status", "--porcelain", "--ignored") == ""
    tracked = git(dest, "ls-files").split()
    assert "case.json" not in tracked and not [p for p in tracked if p.endswith(".pyc")]


def test_make_repo_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine\n")
    with pytest.raises(make_repo.SampleError, match="not an empty directory"):
        make_repo.make_repo("interference", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
    with pytest.raises(make_repo.SampleError, match="unknown sample"):
        make_repo.make_repo("no-such-sample", tmp_path / "new")


# --- what each case promises -----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_expected_labels_are_changes_of_the_real_diff(name: str, built: dict[str, Path]) -> None:
    files = diff(built[name], "good", "bad")
    labels = labels_of(files)
    assert set(make_repo.load_case(name)["expected"]) <= set(labels), labels
    fewest, most, fewest_files, most_files = SIZES.get(name, (1, 10_000, 1, 10_000))
    assert fewest <= len(labels) <= most
    assert fewest_files <= len(files) <= most_files


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_good_passes_and_bad_fails(name: str, scratch: Scratch) -> None:
    outcome, output = scratch.rev_outcome("good")
    assert outcome == PASS, output
    outcome, output = scratch.rev_outcome("bad")
    assert outcome == FAIL, output
    # the same through the patch machinery: all changes applied to GOOD give BAD
    scratch.apply(labels_of(scratch.files))
    git(scratch.path, "add", "-A")  # in the scratch clone, to see new files too
    assert git(scratch.path, "diff", "--cached", "--stat", "bad") == ""


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_expected_changes_fail_and_are_1_minimal(name: str, scratch: Scratch) -> None:
    expected = scratch.case["expected"]
    outcome, output = scratch.outcome(expected)
    assert outcome == FAIL, output
    for label in expected:
        outcome, output = scratch.outcome(set(expected) - {label})
        assert outcome == PASS, f"without {label}: {output}"


# BAD without one of the expected changes. It passes, except in pytest-package, where
# the cause made an import unused and BAD also drops that import: without the cause,
# the rounding code then trips over a NameError, which run_tests.py reports as 125.
COMPLEMENT = {"pytest-package": UNRESOLVED}


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_bad_without_an_expected_change_does_not_fail(name: str, scratch: Scratch) -> None:
    everything = set(labels_of(scratch.files))
    for label in scratch.case["expected"]:
        outcome, output = scratch.outcome(everything - {label})
        assert outcome == COMPLEMENT.get(name, PASS), f"BAD without {label}: {output}"
