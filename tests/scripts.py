"""The project's scripts (the sample builder, benchmarks), loaded as modules for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_repos"
MAKE_REPO = SAMPLES / "make_repo.py"


def load_script(path: Path, name: str) -> ModuleType:
    """Import the script at ``path`` as module ``name`` (registered in sys.modules,
    so dataclasses and pickling inside it can find their module)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_repo = load_script(MAKE_REPO, "sample_make_repo")
