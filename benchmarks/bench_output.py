"""What long test output and checkout conversion cost.

    python benchmarks/bench_output.py

Cases:
  * ``is_construction_failure`` on one word of 40 KB, 1 MiB and 5 MB (it read
    every failing test's output; its patterns were quadratic).
  * A whole wynot run on a three-file repository whose failing test prints one
    50 MB line, against the same run with a quiet test, and the size of the
    run's directory.
  * Bringing a scratch worktree to 20 configurations of a 40-hunk diff, with
    and without a ``.gitattributes`` (eol conversion) that makes git check the
    files out.
Prints one line per case.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wynot.analysis.resolve import is_construction_failure  # noqa: E402
from wynot.diffread import read_diff  # noqa: E402
from wynot.patch import tree_states  # noqa: E402
from wynot.scratch import scratch_worktree  # noqa: E402
from wynot.state import list_runs  # noqa: E402

ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=ENV)


def commit(repo: Path, files: dict[str, bytes], tag: str) -> None:
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", tag)
    git(repo, "tag", tag)


def bench_patterns() -> None:
    for size in (40_000, 1 << 20, 5_000_000):
        text = "x" * size
        start = time.perf_counter()
        is_construction_failure(text)
        print(f"is_construction_failure, one word of {size:>9,} chars: "
              f"{time.perf_counter() - start:.3f} s")


def bench_long_line(tmp: Path) -> None:
    repo = tmp / "long"
    repo.mkdir()
    git(repo, "init", "-q")
    commit(repo, {"value.txt": b"1\n", "a.txt": b"a\n", "b.txt": b"b\n"}, "good")
    commit(repo, {"value.txt": b"2\n", "a.txt": b"A\n", "b.txt": b"B\n"}, "bad")
    for label, printed in (("quiet test", 0), ("test printing a 50 MB line", 50_000_000)):
        code = (f"import sys\nif '2' in open('value.txt').read():\n"
                f"    sys.stdout.write('x' * {printed}); sys.exit(1)\n")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "wynot", "good", "bad", "--no-cache", "--",
                        sys.executable, "-c", code], cwd=repo, capture_output=True,
                       check=True, env={**ENV, "PYTHONPATH": str(ROOT)})
        size = list_runs(repo / ".git" / "wynot")[-1].size
        print(f"wynot run, {label}: {time.perf_counter() - start:.1f} s, "
              f"run directory {size / 1e6:.2f} MB")


def bench_checkout(tmp: Path) -> None:
    lines = [b"line %d\n" % n for n in range(400)]
    changed = [b"LINE %d\n" % n if n % 10 == 5 else line for n, line in enumerate(lines)]
    for label, attributes in (("no attributes", b""),
                              ("*.txt text eol=crlf", b"*.txt text eol=crlf\n")):
        repo = tmp / label.replace(" ", "_").replace("*", "")
        repo.mkdir()
        git(repo, "init", "-q")
        commit(repo, {".gitattributes": attributes, "f.txt": b"".join(lines)}, "good")
        commit(repo, {".gitattributes": attributes, "f.txt": b"".join(changed)}, "bad")
        diff = read_diff(repo, "good", "bad", context=0)
        ids = [c.id for c in diff.changes]
        configs = [frozenset(ids[: n * 2]) for n in range(1, 21)]
        with scratch_worktree(repo, diff.good, tree_states(diff, frozenset())) as worktree:
            start = time.perf_counter()
            for config in configs:
                worktree.apply(tree_states(diff, config))
            elapsed = time.perf_counter() - start
        print(f"20 configurations of {len(ids)} hunks, {label}: "
              f"{elapsed / len(configs) * 1000:.1f} ms each")


def main() -> None:
    bench_patterns()
    with tempfile.TemporaryDirectory(prefix="bench-output-") as tmp:
        bench_long_line(Path(tmp))
        bench_checkout(Path(tmp))


if __name__ == "__main__":
    main()
