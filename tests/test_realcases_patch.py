"""The benchmarks' ground-truth harness (benchmarks/real/realcases.py) applies a
subset of a diff's hunks with ``git apply``: each hunk where GOOD has it, also
in a file that repeats a block, with some of the hunks before it left out."""

from __future__ import annotations

import subprocess
import sys

from scripts import ROOT, load_script

sys.path.insert(0, str(ROOT / "benchmarks" / "real"))
realcases = load_script(ROOT / "benchmarks" / "real" / "realcases.py", "bench_realcases")

BLOCK = b"".join(b"    step(%d);\n" % i for i in range(6))


def test_a_hunk_after_one_left_out_lands_where_good_has_it(make_repo) -> None:
    """Two copies of one block; BAD removes twenty lines near the top, then changes
    the second copy. Applied alone, the second hunk's BAD line number points
    twenty lines up, nearer the first copy than the second: it must still
    change the second."""
    repo = make_repo("repeated")
    filler = b"".join(b"/* %d */\n" % i for i in range(12))
    extra = b"".join(b"int extra%d;\n" % i for i in range(20))
    good = b"int a;\n" + extra + filler + b"void one(void) {\n" + BLOCK + b"}\n" + (
        filler[:4] + b"void two(void) {\n" + BLOCK + b"}\n") + filler
    bad = (b"int a;\n" + filler + b"void one(void) {\n" + BLOCK + b"}\n" + filler[:4]
           + b"void two(void) {\n" + BLOCK.replace(b"step(3);", b"step(33);") + b"}\n"
           + filler)
    repo.commit({"f.c": good})
    subprocess.run(["git", "tag", "good"], cwd=repo.path, check=True)
    repo.commit({"f.c": bad})
    subprocess.run(["git", "tag", "bad"], cwd=repo.path, check=True)
    files = realcases.parse_diff(realcases.diff_bytes(repo.path, context=3))
    insert, change = sorted((c for f in files for c in f.changes), key=lambda c: c.old_start)
    subprocess.run(["git", "checkout", "-q", "good"], cwd=repo.path, check=True)
    subprocess.run(["git", "apply", "-"], cwd=repo.path, check=True,
                   input=realcases.patch_for([change]))
    applied = (repo.path / "f.c").read_bytes()
    first, second = applied.split(b"void two(void)")
    assert b"step(33);" in second and b"step(33);" not in first
    assert applied == good.replace(b"void two(void) {\n" + BLOCK, b"void two(void) {\n"
                                   + BLOCK.replace(b"step(3);", b"step(33);"))
    assert realcases.patch_for([insert, change]).count(b"@@") == 4
