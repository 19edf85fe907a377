"""docs/ci.md's script runs as written, end to end, on a sample repository."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import validate_report

DOC = Path(__file__).resolve().parent.parent / "docs" / "ci.md"
pytestmark = pytest.mark.slow


def nightly_script() -> str:
    """The one ```bash block of docs/ci.md that starts with ``# wynot-nightly.sh``."""
    blocks = re.findall(r"^```bash\n(.*?)^```$", DOC.read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    (script,) = [b for b in blocks if b.startswith("# wynot-nightly.sh")]
    return script


def run_script(repo: Path, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "wynot-nightly.sh"
    script.write_text(nightly_script(), encoding="utf-8")
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    full["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{full.get('PATH', '')}"
    full.update(env)
    return subprocess.run(["bash", str(script)], cwd=repo, env=full, capture_output=True,
                          text=True, timeout=600, check=False)


def test_the_nightly_script_finds_posts_reverts_and_keeps_the_run(
        built: dict[str, Path], tmp_path: Path) -> None:
    repo = built["long-history"]
    done = run_script(repo, tmp_path, WYNOT_GOOD="good", WYNOT_BAD="bad",
                      TEST_COMMAND="python3 run_tests.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "culprit found and verified" in done.stdout
    report = json.loads((repo / "wynot.json").read_text())
    validate_report(report)
    assert report["status"] == "found"
    subject = "wrap: add fill_paragraphs() and measure widths in one place"
    assert report["commit"]["subject"] == subject
    assert [c["label"] for c in report["changes"]] == ["textkit/wrap.py:-58,6"]
    assert report["revert"]["verified"], report["revert"]
    markdown = (repo / "wynot.md").read_text()
    assert markdown.startswith("### wynot: found") and subject in markdown
    assert (repo / "wynot-revert.patch").read_bytes().startswith(b"diff --git")
    kept = repo / "wynot-run"
    assert (kept / "log.jsonl").exists() and (kept / "result.json").exists()
    assert (kept / "log.jsonl").read_bytes() == (Path(report["log"]) / "log.jsonl").read_bytes()
    again = subprocess.run([str(Path(sys.executable).parent / "wynot"), "report", "wynot-run",
                            "--format", "json"], cwd=repo, capture_output=True, text=True,
                           check=True)
    assert json.loads(again.stdout)["changes"] == report["changes"]


def test_the_nightly_script_exits_3_when_good_fails(built: dict[str, Path],
                                                    tmp_path: Path) -> None:
    repo = built["long-history"]
    done = run_script(repo, tmp_path, WYNOT_GOOD="bad~3", WYNOT_BAD="bad",
                      TEST_COMMAND="python3 run_tests.py")
    assert done.returncode == 3, done.stdout + done.stderr
    assert "nothing to triage" in done.stdout
    assert json.loads((repo / "wynot.json").read_text())["status"] == "inconclusive"
    assert "inconclusive" in (repo / "wynot.md").read_text()
