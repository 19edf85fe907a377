"""`wynot --help` documents every option; output is plain when piped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click

from cli_helpers import run_wynot
from wynot.cli import wynot


def test_help_documents_every_option() -> None:
    result = run_wynot("--help")
    assert result.returncode == 0
    text = result.stdout
    for param in wynot.params:
        if isinstance(param, click.Option):
            assert param.help, f"{param.name} has no help text"
            assert param.opts[-1] in text, f"{param.opts[-1]} missing from --help"
    for word in ["GOOD", "BAD", "COMMAND", "Exit codes", "125", "WYNOT_"]:
        assert word in text


def test_version() -> None:
    result = run_wynot("--version")
    assert result.returncode == 0 and result.stdout.startswith("wynot, version ")


def test_git_wynot_runs_as_a_git_subcommand() -> None:
    scripts = Path(sys.executable).parent
    assert (scripts / "git-wynot").exists(), "install wynot (pip install -e .) to run the tests"
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(["git", "wynot", "--version"], capture_output=True, text=True,
                            env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wynot, version ")


def test_output_is_plain_when_piped_and_colored_on_request(make_repo) -> None:
    repo = make_repo("colors")
    repo.commit({"v.txt": b"1\n"})
    repo.git("tag", "good")
    repo.commit({"v.txt": b"2\n"})
    repo.git("tag", "bad")
    check = ["--", "grep", "-q", "1", "v.txt"]
    plain = run_wynot("good", "bad", *check, cwd=repo.path)
    assert plain.returncode == 0, plain.stderr
    assert "\x1b[" not in plain.stdout
    assert "-1\n+2\n" in plain.stdout
    colored = run_wynot("good", "bad", "--color", "always", *check, cwd=repo.path)
    assert "\x1b[32m+2" in colored.stdout and "\x1b[31m-1" in colored.stdout
    env_json = run_wynot("good", "bad", *check, cwd=repo.path, env={"WYNOT_JSON": "1"})
    assert json.loads(env_json.stdout)["changes"][0]["label"] == "v.txt:-1,1"
