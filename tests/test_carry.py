"""In the default mode the patch is carried onto GOOD and verified there, or names its base."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo

CHECK = ["--", "sh", "-c", "grep -q 'value = 1' calc.txt && test ! -f strict"]


def calc(**lines: str) -> bytes:
    """calc.txt: 20 numbered lines, some replaced (keys l1..l20)."""
    return b"".join((lines.get(f"l{i}", f"line {i}") + "\n").encode() for i in range(1, 21))


def build(repo: GitRepo, early: dict[str, str], late_value: str, strict_at: int = -1) -> None:
    """GOOD, then 8 commits; the 5th sets value to 2. ``early`` edits calc.txt in commit 1."""
    files = {"calc.txt": calc(l15="value = 1"), "other.txt": b"0\n"}
    repo.commit(dict(files), "base")
    repo.git("tag", "good")
    lines = {"l15": "value = 1"}
    for i in range(1, 9):
        if i == 1:
            lines.update(early)
        if i == 5:
            lines["l15"] = late_value
        if i == strict_at:
            files["strict.txt"] = b"on\n"
        files["calc.txt"] = calc(**lines)
        files["other.txt"] = b"%d\n" % i
        repo.commit(dict(files), f"commit {i}")
    repo.git("tag", "bad")


def applies(repo: GitRepo, rev: str, patch: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """`git apply` of the patch on a fresh worktree of ``rev`` (then the test's verdict)."""
    tree = tmp / f"check-{rev}"
    subprocess.run(["git", "-C", str(repo.path), "worktree", "add", "-q", "--detach", str(tree),
                    rev], check=True)
    return subprocess.run(["sh", "-c", f"git apply '{patch}' && {CHECK[-1]}"], cwd=tree,
                          capture_output=True, text=True, check=False)


def test_patch_is_carried_onto_good_and_verified_there(make_repo, tmp_path: Path) -> None:
    repo = make_repo("carry")
    build(repo, {"l13": "line 13, edited"}, "value = 2")  # GOOD differs in the hunk's context
    patch = tmp_path / "fix.patch"
    result = run_wynot("good", "bad", "--json", "--no-cache", "--patch", str(patch), *CHECK,
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["patch"] == {"base": repo.text("rev-parse", "good"), "on_good": True,
                               "note": None}
    assert b"line 13, edited" not in patch.read_bytes()  # GOOD's context, not the parent's
    on_good = applies(repo, "good", patch, tmp_path)
    assert on_good.returncode == 1, on_good.stderr  # applies, and the test then fails
    verify = [t for t in report["tests"] if t["phase"] == "verify"]
    assert [t["commit"] for t in verify] == [None, repo.text("rev-parse", "good")]
    assert all(t["outcome"] == "fail" for t in verify)
    text = run_wynot("good", "bad", "--patch", str(patch), *CHECK, cwd=repo.path).stdout
    parent = repo.text("rev-parse", "bad~4")[:12]
    assert f"verified: applied alone to {parent} and, carried over, to GOOD, it fails" in text


@pytest.mark.parametrize(("early", "strict_at", "why"), [
    ({"l15": "value = 1 (checked)"}, -1, "conflict"),
    ({}, 3, "does not fail"),
])
def test_patch_that_does_not_carry_names_its_base(make_repo, tmp_path: Path, early: dict,
                                                  strict_at: int, why: str) -> None:
    repo = make_repo("nocarry")
    late = "value = 2 (checked)" if early else "value = 2"
    build(repo, early, late, strict_at)
    check = CHECK if strict_at < 0 else [
        "--", "sh", "-c", "grep -q 'value = 1' calc.txt || test ! -f strict.txt"]
    patch = tmp_path / "fix.patch"
    result = run_wynot("good", "bad", "--json", "--no-cache", "--patch", str(patch), *check,
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    parent = repo.text("rev-parse", "bad~4")
    assert report["patch"]["base"] == parent and not report["patch"]["on_good"]
    assert why in report["patch"]["note"]
    assert patch.read_bytes().startswith(f"wynot: this patch applies to {parent}, not to GOOD "
                                         .encode())
    tree = tmp_path / "at-parent"
    subprocess.run(["git", "-C", str(repo.path), "worktree", "add", "-q", "--detach", str(tree),
                    parent], check=True)
    subprocess.run(["git", "apply", str(patch)], cwd=tree, check=True)
    text = run_wynot("good", "bad", "--no-cache", *check, cwd=repo.path).stdout
    assert f"applied alone to {parent[:12]} (the patch applies there, not to GOOD)" in text
    assert f"wynot: the patch applies to {parent[:12]}, not to GOOD: " in text
