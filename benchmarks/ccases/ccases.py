"""Real C regressions between two releases, built from a fetched git mirror.

A case (``cases/<name>.json``) names a project, two release commits (pinned by
sha), the files the build needs (``fnmatch`` patterns over the tree), one gcc
command and a C test program (``cases/<test_file>``). ``build_case`` copies
those files of each release out of a local mirror of the project's history
(nothing is fetched here) into a new git repository with tags ``good`` and
``bad``, plus the test program (``wynot_case_test.c``) and its driver
``wynot_case_test.sh``:

* the gcc command builds the sources and the test program in a temporary
  folder; when compiling or linking fails the driver exits 125;
* otherwise the program's exit code is the test's: 0 for the old behaviour,
  1 for the new one; anything else (125 from the program, or a crash: a
  segmentation fault exits 139) makes the driver exit 125.

A case in another language gives ``run`` instead of ``gcc`` (``node
wynot_case_test.js``), perhaps after a ``build`` command that writes into
``"$out"`` (``javac -d "$out" ...``; 125 when it fails), and names its test
program's file in the case repository (``test_name``). The exit codes are
the same; the program must catch its own errors and exit 125 for them, since
an uncaught exception exits 1 in node and in java.

Hunks, scratch worktrees and brute force come from ``benchmarks/real``.
"""

from __future__ import annotations

import fnmatch
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "real"))
import realcases as rc  # noqa: E402

CASES_DIR = HERE / "cases"
MIRRORS = Path(os.environ.get("WYNOT_MIRRORS", "/work/.mirror"))
TEST_C = "wynot_case_test.c"
TEST_SH = "wynot_case_test.sh"
TEST_COMMAND = ["sh", TEST_SH]

DRIVER = """\
#!/bin/sh
# Build with one gcc command, then run the check (exit 0 old behaviour, 1 new).
# Exit 125 when the build fails: that configuration cannot be judged.
cd "$(dirname "$0")" || exit 125
out=$(mktemp -d) || exit 125
trap 'rm -rf "$out"' EXIT
if ! {gcc}; then
    echo "UNRESOLVED: the build failed" >&2
    exit 125
fi
"$out/t"
code=$?
# 0 and 1 are the two behaviours; a crash (a signal: 128 + its number) or any
# other exit cannot judge the change
case $code in
    0|1) exit $code ;;
    *) echo "UNRESOLVED: the test program exited $code" >&2; exit 125 ;;
esac
"""

RUN_DRIVER = """\
#!/bin/sh
# Run the check (exit 0 old behaviour, 1 new); the program exits 125 itself
# when the sources do not load or it meets an error it does not expect.
cd "$(dirname "$0")" || exit 125
{build}{run}
code=$?
# 0 and 1 are the two behaviours; a crash or any other exit cannot judge the change
case $code in
    0|1) exit $code ;;
    *) echo "UNRESOLVED: the test program exited $code" >&2; exit 125 ;;
esac
"""

# A compiler's step for a case with ``run`` (javac): 125 when it fails, and
# "$out" is a temporary folder for what it writes
BUILD_STEP = """\
out=$(mktemp -d) || exit 125
trap 'rm -rf "$out"' EXIT
if ! {build}; then
    echo "UNRESOLVED: the build failed" >&2
    exit 125
fi
"""


def test_name(case: dict) -> str:
    """The test program's file name in the case repository."""
    return str(case.get("test_name", TEST_C))


def driver_of(case: dict) -> bytes:
    """The driver script: build with ``gcc`` and run, or only ``run``."""
    if "gcc" in case:
        return DRIVER.replace("{gcc}", case["gcc"]).encode()
    build = BUILD_STEP.replace("{build}", case["build"]) if "build" in case else ""
    return RUN_DRIVER.replace("{build}", build).replace("{run}", case["run"]).encode()


def case_names() -> list[str]:
    return sorted(p.stem for p in CASES_DIR.glob("*.json"))


def load_case(name: str) -> dict:
    path = CASES_DIR / f"{name}.json"
    if not path.is_file():
        raise rc.CaseError(f"no case {name!r} (known: {', '.join(case_names())})")
    case = json.loads(path.read_text(encoding="utf-8"))
    case["name"] = name
    for key in ("project", "good_tag", "good_commit", "bad_tag", "bad_commit", "files",
                "test_file", "changelog", "ground_truth"):
        if key not in case:
            raise rc.CaseError(f"{path}: missing key {key!r}")
    if ("gcc" in case) == ("run" in case):
        raise rc.CaseError(f"{path}: give exactly one of 'gcc' and 'run'")
    return case


def mirror_of(case: dict, mirror: Path | None = None) -> Path:
    """The bare git directory holding the project's history."""
    path = mirror or MIRRORS / case["project"].replace("/", "+") / "repo"
    if not (path / "objects").is_dir() and not (path / ".git").exists():
        raise rc.CaseError(f"no git mirror of {case['project']} at {path}; fetch "
                           f"github:{case['project']} first or pass --mirror")
    return path


def _mirror_git(mirror: Path, *args: str) -> bytes:
    proc = subprocess.run(["git", "--git-dir", str(mirror), *args], capture_output=True)
    if proc.returncode != 0:
        raise rc.CaseError(f"git {' '.join(args)} in {mirror}: "
                           f"{proc.stderr.decode(errors='replace')[-500:]}")
    return proc.stdout


def release_files(mirror: Path, commit: str, patterns: list[str]) -> dict[str, bytes]:
    """The files of ``commit`` that match one of ``patterns``, by path."""
    names = _mirror_git(mirror, "ls-tree", "-r", "--name-only", "-z", commit).split(b"\0")
    paths = [n.decode() for n in names if n]
    keep = [p for p in paths if any(fnmatch.fnmatchcase(p, pat) for pat in patterns)]
    return {p: _mirror_git(mirror, "show", f"{commit}:{p}") for p in keep}


def build_case(name: str, dest: Path, mirror: Path | None = None) -> Path:
    """Build the case's repository at ``dest`` (must not exist or be empty)."""
    case = load_case(name)
    dest = Path(dest).resolve()
    if dest.exists() and any(dest.iterdir()):
        raise rc.CaseError(f"{dest} exists and is not empty")
    source = mirror_of(case, mirror)
    test_c = (CASES_DIR / case["test_file"]).read_bytes()
    driver = driver_of(case)
    dest.mkdir(parents=True, exist_ok=True)
    rc.git(dest, "init", "-q")
    for side in ("good", "bad"):
        commit = case[f"{side}_commit"]
        files = release_files(source, commit, case["files"])
        files[test_name(case)] = test_c
        files[TEST_SH] = driver
        for entry in os.listdir(dest):
            if entry != ".git":
                rc.git(dest, "rm", "-r", "-q", "--cached", "--ignore-unmatch", entry, side=side)
                subprocess.run(["rm", "-rf", str(dest / entry)], check=True)
        for rel, data in files.items():
            p = dest / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        rc.git(dest, "add", "-A", "-f", ".", side=side)
        rc.git(dest, "commit", "-q", "--no-verify", "--allow-empty", "-m",
               f"{case['project']} {case[side + '_tag']} ({side}): {len(files) - 2} files of "
               f"{commit[:12]}", side=side)
        rc.git(dest, "tag", side, side=side)
    return dest
