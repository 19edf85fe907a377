#!/usr/bin/env python3
"""Digests of wynot's analysis of a diff, to show that two versions compute the same values.

    python benchmarks/scale/analysis_digest.py REPO [GOOD] [BAD]

Prints one JSON line: a digest of the dependencies, plan, units, clusters,
symbols and scopes with the default options, and of the plan with
``--group dir,file,lexical,syntax``. Sets are sorted before they are digested,
so the digests do not depend on Python's hash seed. Run it with each version
(``PYTHONPATH=DIR`` for another source tree) and compare the lines.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wynot.analyse import Options, analyse
from wynot.git import resolve_commit


def canonical(value: Any) -> Any:
    """``value`` with sets sorted and dataclasses as named tuples: a stable repr."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, canonical(getattr(value, f.name)))
                                            for f in dataclasses.fields(value)))
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted((canonical(v) for v in value), key=repr)))
    if isinstance(value, Mapping):
        return ("map", tuple((canonical(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(canonical(v) for v in value))
    return value


def digest(value: Any) -> str:
    return hashlib.sha256(repr(canonical(value)).encode()).hexdigest()[:16]


def commits(description: str) -> tuple[Path, str, str]:
    """REPO [GOOD] [BAD] from the command line: the repository and two full commit ids."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("repo", type=Path)
    ap.add_argument("good", nargs="?", default="good")
    ap.add_argument("bad", nargs="?", default="bad")
    args = ap.parse_args()
    return args.repo, resolve_commit(args.repo, args.good), resolve_commit(args.repo, args.bad)


def main() -> None:
    repo, good, bad = commits(__doc__.splitlines()[0])
    found = analyse(repo, good, bad, Options(3, ("dir", "file", "syntax"), True, True),
                    lambda _: None)
    lexical = analyse(repo, good, bad,
                      Options(3, ("dir", "file", "lexical", "syntax"), True, True), lambda _: None)
    print(json.dumps({"changes": len(found.diff.changes), "deps": digest(found.deps),
                      "plan": digest(found.plan), "units": digest(found.plan.units),
                      "clusters": digest(found.deps.clusters), "symbols": digest(found.symbols),
                      "scopes": digest(found.scopes), "lexical plan": digest(lexical.plan)}))


if __name__ == "__main__":
    main()
