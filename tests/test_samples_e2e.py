"""End to end: the installed CLI on every sample repository finds the expected changes."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from scripts import make_repo as samples

from cli_helpers import assert_no_configuration_ran_twice, run_wynot

MODES = {"default": [],
         "flat dd+": ["--group", "none", "--no-predict", "--no-resolve", "--no-keep-passing"]}


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", samples.sample_names())
def test_wynot_isolates_the_expected_changes(name: str, mode: str, tmp_path: Path) -> None:
    case = samples.load_case(name)
    # The samples' tests run with this interpreter (the one that has pytest).
    test = [sys.executable if case["test"][0] in ("python", "python3") else case["test"][0],
            *case["test"][1:]]
    repo = samples.make_repo(name, tmp_path / name)
    patch = tmp_path / "found.patch"
    args = ["good", "bad", "--json", "--patch", str(patch), *case.get("options", []),
            *MODES[mode]]
    if case.get("build"):
        args += ["--build", shlex.join(case["build"])]
    result = run_wynot(*args, "--", *test, cwd=repo, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert sorted(c["label"] for c in report["changes"]) == sorted(case["expected"])
    assert report["verified"] and report["minimal"]
    assert {c["role"] for c in report["changes"]} == {"cause"}
    assert_no_configuration_ran_twice(report)

    # The patch applies to GOOD and makes the test fail there, on its own.
    check = tmp_path / "check"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", "--detach", str(check),
                    "good"], check=True)
    subprocess.run(["git", "-C", str(check), "apply", "--check", str(patch)], check=True)
    subprocess.run(["git", "-C", str(check), "apply", str(patch)], check=True)
    if case.get("build"):
        subprocess.run(case["build"], cwd=check, check=True, capture_output=True)
    outcome = subprocess.run(test, cwd=check, capture_output=True, check=False)
    assert outcome.returncode not in (0, 125), outcome.stdout
