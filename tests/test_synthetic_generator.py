"""The synthetic workload generator (benchmarks/synthetic/generate.py) makes real, testable repos.

Small repositories (300 hunks in 15 packages) are generated once per module and
checked with git and the repository's own run_test.py: the premise holds, the
planted cause fails alone, half-applied changes do not import, and the same seed
gives the same commits.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "synthetic" / "generate.py"
HUNKS, DIRS = 300, 15
ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}
HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def load_generator():
    return load_script(SCRIPT, "synthetic_generate")


def git(repo: Path, *args: str, check: bool = True) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(["git", *args], cwd=repo, env={**env, **ENV}, capture_output=True,
                          text=True, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stderr}")
    return done.stdout


def generate(dest: Path, *extra: str) -> dict:
    """Run the script as a user would and return the description it writes."""
    done = subprocess.run([sys.executable, str(SCRIPT), str(dest), "--hunks", str(HUNKS),
                           "--dirs", str(DIRS), "--no-verify", *extra], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(Path(f"{dest}.json").read_text(encoding="utf-8"))


class Hunks:
    """The hunks of ``git diff good bad`` as separately applicable pieces."""

    def __init__(self, diff: str) -> None:
        self.files: list[tuple[list[str], list[tuple[str, list[str]]]]] = []
        header: list[str] = []
        hunks: list[tuple[str, list[str]]] = []
        path = ""
        for line in diff.splitlines(keepends=True):
            if line.startswith("diff --git "):
                if header:
                    self.files.append((header, hunks))
                header, hunks, path = [line], [], ""
            elif hunks and line[:1] in (" ", "+", "-", "\\"):
                hunks[-1][1].append(line)
            elif line.startswith("@@"):
                match = HUNK_HEADER.match(line)
                assert match, line
                label = f"{path}:-{match[1]},{match[2] if match[2] is not None else 1}"
                hunks.append((label, [line]))
            else:
                header.append(line)
                if line[:4] in ("+++ ", "--- ") and not line.startswith(("+++ /dev/null",
                                                                         "--- /dev/null")):
                    path = line[6:].rstrip("\n")
        if header:
            self.files.append((header, hunks))

    @property
    def labels(self) -> list[str]:
        return [label for _, hunks in self.files for label, _ in hunks]

    def patch(self, keep: set[str]) -> str:
        out = []
        for header, hunks in self.files:
            chosen = [body for label, body in hunks if label in keep]
            if chosen:
                out += header + [line for body in chosen for line in body]
        return "".join(out)


class Checkout:
    """A worktree of the generated repository at ``good`` that patches are applied to."""

    def __init__(self, repo: Path, path: Path) -> None:
        self.repo = repo
        self.path = path
        git(repo, "worktree", "add", "-q", "--detach", str(path), "good")
        self.hunks = Hunks(git(repo, "diff", "good", "bad"))

    def run(self, keep: set[str] | None = None, commit: str = "good") -> int:
        """Exit status of run_test.py on ``commit`` with only the hunks in ``keep`` applied."""
        git(self.path, "reset", "-q", "--hard", commit)
        git(self.path, "clean", "-fdqx")
        if keep:
            patch = self.path / ".wynot-test.patch"
            patch.write_text(self.hunks.patch(keep), encoding="utf-8")
            git(self.path, "apply", str(patch))
            patch.unlink()
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run([sys.executable, "run_test.py"], cwd=self.path, env=env,
                              capture_output=True, text=True, check=False, timeout=60)
        self.output = done.stdout + done.stderr
        return done.returncode


@pytest.fixture(scope="module")
def one_cause(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, Checkout]:
    base = tmp_path_factory.mktemp("one")
    repo = base / "repo"
    info = generate(repo, "--seed", "7")
    return repo, info, Checkout(repo, base / "checkout")


@pytest.fixture(scope="module")
def two_causes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, Checkout]:
    base = tmp_path_factory.mktemp("two")
    repo = base / "repo"
    info = generate(repo, "--causes", "2", "--seed", "11")
    return repo, info, Checkout(repo, base / "checkout")


def test_the_repository_has_good_and_bad_and_about_the_hunks_asked_for(one_cause):
    repo, info, checkout = one_cause
    assert git(repo, "rev-parse", "good^{commit}").strip()
    assert git(repo, "rev-parse", "bad^{commit}").strip() == git(repo, "rev-parse", "HEAD").strip()
    assert git(repo, "rev-parse", "bad~1").strip() == git(repo, "rev-parse", "good").strip()
    diff = git(repo, "diff", "good", "bad")
    count = sum(1 for line in diff.splitlines() if line.startswith("@@"))
    assert abs(count - HUNKS) <= HUNKS // 4
    assert info["hunks"] == count == len(checkout.hunks.labels)
    assert info["test"] == ["python3", "run_test.py"]
    assert info["dirs"] == DIRS and info["seed"] == 7
    assert not (repo / "repo.json").exists() and (repo.parent / "repo.json").is_file()
    assert set(info["expected"]) <= set(checkout.hunks.labels)
    assert not info["problems"]


def test_good_passes_and_bad_fails(one_cause):
    _, _, checkout = one_cause
    assert checkout.run() == 0, checkout.output
    assert checkout.run(commit="bad") == 1, checkout.output
    assert "FAIL" in checkout.output and "Error" not in checkout.output


def test_the_cause_alone_fails(one_cause):
    _, info, checkout = one_cause
    assert len(info["expected"]) == 1
    assert checkout.run(set(info["expected"])) == 1, checkout.output


def test_two_causes_fail_only_together(two_causes):
    _, info, checkout = two_causes
    first, second = info["expected"]
    assert first.split(":")[0].rsplit("/", 1)[0] != second.split(":")[0].rsplit("/", 1)[0]
    assert checkout.run({first, second}) == 1, checkout.output
    assert checkout.run({first}) == 0, checkout.output
    assert checkout.run({second}) == 0, checkout.output
    assert checkout.run(commit="bad") == 1, checkout.output


def test_a_cause_that_needs_a_helper(tmp_path):
    repo = tmp_path / "repo"
    info = generate(repo, "--cause-needs-context", "--seed", "5")
    checkout = Checkout(repo, tmp_path / "checkout")
    assert len(info["expected"]) == 2
    assert checkout.run(set(info["expected"])) == 1, checkout.output
    outcomes = sorted(checkout.run({label}) for label in info["expected"])
    assert outcomes == [0, 125], checkout.output  # the helper alone passes, the cause cannot run


def test_random_halves_do_not_import(one_cause):
    _, _, checkout = one_cause
    rng = random.Random(2024)
    labels = checkout.hunks.labels
    outcomes, outputs = [], []
    for _ in range(10):
        outcomes.append(checkout.run(set(rng.sample(labels, len(labels) // 2))))
        outputs.append(checkout.output)
    assert outcomes.count(125) >= 8, outcomes
    named = [o for o, rc in zip(outputs, outcomes, strict=True) if rc == 125 and re.search(
        r"(ImportError|AttributeError|NameError|ModuleNotFoundError|TypeError): .*'[\w.]+'",
        o)]
    assert len(named) == outcomes.count(125), outputs  # errors name the identifier


def test_the_same_seed_gives_the_same_commits(one_cause, tmp_path):
    repo, info, _ = one_cause
    again = generate(tmp_path / "again", "--seed", "7")
    assert again["commits"] == info["commits"]
    assert git(tmp_path / "again", "rev-parse", "bad") == git(repo, "rev-parse", "bad")
    trees = []
    for seed in (7, 8):
        generator = load_generator().Generator(HUNKS, DIRS, 1, seed, False, 0.4)
        generator.build()
        trees.append(generator.trees()[1])
    assert trees[0]["run_test.py"] == git(repo, "show", "bad:run_test.py")
    assert trees[0] != trees[1]


def test_rejects_an_existing_destination(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 1 and "already exists" in done.stderr
