"""The outcome cache never replays stale outcomes: premise failures, edited scripts, flakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_state import good_bad_repo

from cli_helpers import run_wynot
from wynot.cache import CachedOutcome, OutcomeCache, command_files
from wynot.outcome import Outcome

pytestmark = pytest.mark.slow


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """good..bad changes three files; value.txt 1 -> 2 is what the tests look for."""
    return good_bad_repo(tmp_path / "repo")


def answer(stdout: str) -> list[str]:
    return [c["path"] for c in json.loads(stdout)["changes"]]


def test_a_premise_that_failed_is_tested_again(repo: Path, tmp_path: Path) -> None:
    """GOOD failed because a tool was missing; once it is installed, a rerun works."""
    home = tmp_path / "home"
    home.mkdir()
    check = ["--", "sh", "-c", 'test -e "$HOME/tool" || exit 9; ! grep -q 2 value.txt']
    first = run_wynot("good", "bad", *check, cwd=repo, env={"HOME": str(home)})
    assert first.returncode == 3, first.stderr
    (home / "tool").write_text("installed\n")
    second = run_wynot("good", "bad", "--json", *check, cwd=repo, env={"HOME": str(home)})
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == ["value.txt"]


def test_editing_a_test_script_outside_the_repository_runs_the_tests_again(
        repo: Path, tmp_path: Path) -> None:
    script = tmp_path / "scripts" / "check.sh"
    script.parent.mkdir()
    script.write_text("! grep -q 2 value.txt\n")
    first = run_wynot("good", "bad", "--json", "--", "sh", str(script), cwd=repo)
    assert answer(first.stdout) == ["value.txt"], first.stderr
    script.write_text("! grep -q b other.txt\n")
    second = run_wynot("good", "bad", "--json", "--", "sh", str(script), cwd=repo)
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == ["other.txt"]
    assert json.loads(second.stdout)["from_cache"] == 0


def test_replayed_outcomes_are_announced(repo: Path) -> None:
    check = ["--", "sh", "-c", "! grep -q 2 value.txt"]
    run_wynot("good", "bad", *check, cwd=repo)
    again = run_wynot("good", "bad", *check, cwd=repo)
    assert again.returncode == 0, again.stderr
    assert "earlier runs (--no-cache runs every test again)" in again.stderr
    assert "outcomes from the cache of earlier runs; --no-cache to rerun" in again.stdout
    fresh = run_wynot("good", "bad", "--json", "--no-cache", *check, cwd=repo)
    assert json.loads(fresh.stdout)["from_cache"] == 0
    assert not any(t["earlier_run"] for t in json.loads(fresh.stdout)["tests"])


FLAKY = """\
if grep -q 2 value.txt; then exit 1; fi
# GOOD itself passes; the first two other configurations that should pass fail.
if grep -q '^a$' other.txt && grep -q 'line 30' notes.txt; then exit 0; fi
if [ -e "{flag}2" ]; then exit 0; fi
if [ -e "{flag}" ]; then touch "{flag}2"; else touch "{flag}"; fi
exit 1
"""


def test_a_fail_seen_once_does_not_decide_later_runs(repo: Path, tmp_path: Path) -> None:
    script = tmp_path / "flaky.sh"
    script.write_text(FLAKY.format(flag=tmp_path / "flaked"))
    first = run_wynot("good", "bad", "--json", "--", "sh", str(script), cwd=repo)
    assert (tmp_path / "flaked2").exists()
    assert first.returncode == 4, first.stderr  # the verification caught the flake
    second = run_wynot("good", "bad", "--json", "--", "sh", str(script), cwd=repo)
    assert second.returncode == 0, second.stderr
    assert answer(second.stdout) == ["value.txt"]


def test_observations_are_counted_and_disagreement_is_not_replayed(tmp_path: Path) -> None:
    cache = OutcomeCache(tmp_path / "cache.sqlite")
    fail = CachedOutcome(Outcome.FAIL, "test failed", 0.1, "out")
    cache.put("k", {1, 2}, fail)
    cache.put("k", {1, 2}, fail)
    assert cache.get("k", {2, 1}) == CachedOutcome(Outcome.FAIL, "test failed", 0.1, "out", 2)
    cache.put("k", {1, 2}, CachedOutcome(Outcome.PASS, "test passed", 0.1, "out"))
    assert cache.get("k", {1, 2}) is None
    assert cache.observations("k", {1, 2}) == {Outcome.FAIL: 2, Outcome.PASS: 1}
    cache.dispute("k", [{1, 2}])
    assert cache.get("k", {1, 2}) is None and cache.observations("k", {1, 2}) == {}
    assert cache.observations("k", {1, 2}, disputed=True)[Outcome.FAIL] == 2
    cache.close()
    quiet = OutcomeCache(tmp_path / "cache.sqlite", replay=False)
    quiet.put("k", {3}, fail)
    assert quiet.get("k", {3}) is None
    quiet.close()
    assert OutcomeCache(tmp_path / "cache.sqlite").get("k", {3}) is not None


def test_command_files_cover_scripts_outside_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "inside.sh").write_text("x")
    outside = tmp_path / "t.sh"
    outside.write_text("exit 0\n")
    found = command_files(repo, ["sh", "-c", f"{outside} --quick"],
                          ["make", f"--file={repo}/tests/inside.sh"])
    assert str(outside.resolve()) in found
    assert not any(p.startswith(str(repo.resolve())) for p in found)
    before = found[str(outside.resolve())]
    outside.write_text("exit 1\n")
    assert command_files(repo, ["sh", "-c", f"{outside} --quick"])[str(outside.resolve())] \
        != before
