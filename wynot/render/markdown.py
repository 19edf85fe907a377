"""Markdown for an issue or pull-request comment, and for a job summary.

The culprit comes first (status, commit, the changes by label), then each change
folded in ``<details>``, then how to reproduce it. The whole text stays under
:data:`LIMIT` bytes whatever the answer's size (GitHub refuses comments over
65,536 characters): changes that do not fit are named and counted, not shown.
"""

from __future__ import annotations

import re

from wynot.changes import Change
from wynot.render.info import (
    FOUND,
    INCONCLUSIVE,
    SUSPECT,
    ReportInfo,
    counts,
    reproduce_steps,
    status_of,
    wynot_command,
)
from wynot.report import summary_line
from wynot.result import CAUSE, Result

LIMIT = 60_000  # bytes, with room below GitHub's 65,536 characters
HUNK_LIMIT = 6_000  # bytes of one change's diff before it is cut
HEADLINES = {FOUND: "found", SUSPECT: "suspect (not proven minimal)",
             INCONCLUSIVE: "inconclusive"}


def render_markdown(result: Result | None, info: ReportInfo, *, limit: int = LIMIT) -> str:
    """The report as Markdown of at most ``limit`` UTF-8 bytes."""
    head = _head(result, info)
    tail = _tail(result, info)
    budget = limit - _size("\n".join(head)) - _size("\n".join(tail)) - 200
    body: list[str] = []
    if result is not None and result.changes:
        body = _changes(result, budget)
    text = "\n".join([*head, *body, *tail]) + "\n"
    if _size(text) > limit:  # a huge message or command line: cut, never exceed
        text = _cut(text, limit - 40) + "\n\n*(report cut to fit)*\n"
    return text


def _head(result: Result | None, info: ReportInfo) -> list[str]:
    status = status_of(result, partial=info.partial)
    lines = [f"### wynot: {HEADLINES.get(status, status)}", ""]
    if info.message:
        lines += [_quote(info.message), ""]
    if info.partial:
        lines += ["*The run did not finish: this is the best answer it had so far, "
                  "not verified.*", ""]
    if result is None:
        return lines
    phase = result.commit_phase
    if phase is not None:
        if phase.bisection.exact:
            commit = phase.commits.get(phase.first_bad)
            what = (f"`{commit.short}` {_inline(commit.subject)} ({_inline(commit.author)}, "
                    f"{commit.date})") if commit else f"`{phase.first_bad[:12]}`"
            lines.append(f"**First bad commit:** {what}")
        else:
            shas = ", ".join(f"`{s[:12]}`" for s in (*phase.skipped, phase.first_bad))
            lines.append(f"**First bad commit:** one of {shas} (the others could not be "
                         "tested)")
    if result.diff is not None and result.changes:
        causes = [c for c in result.changes if result.roles.get(c.id) == CAUSE]
        shown = causes or list(result.changes)
        word = "Cause" if causes else "Changes"
        labels = ", ".join(f"`{_inline(c.label)}`" for c in shown[:20])
        more = f" and {len(shown) - 20} more" if len(shown) > 20 else ""
        lines.append(f"**{word}:** {labels}{more}")
        total = counts(result)["changes_total"]
        lines.append(f"**Answer:** {len(result.changes)} of {total} changes between "
                     f"`{result.diff.good[:12]}` and `{result.diff.bad[:12]}`"
                     f"{', verified on its own' if result.verified else ''}"
                     f"{'' if result.minimal else ', not minimal'}")
    if info.revert is not None:
        lines.append(f"**Revert:** {_inline(info.revert.message)}")
    lines.append("")
    return lines


def _changes(result: Result, budget: int) -> list[str]:
    lines: list[str] = []
    ordered = sorted(result.changes, key=lambda c: (result.roles.get(c.id) != CAUSE, c.id))
    for number, change in enumerate(ordered):
        block = _change_block(result, change)
        if _size("\n".join(block)) + _size("\n".join(lines)) > budget:
            rest = ordered[number:]
            lines.append(f"*{len(rest)} more changes not shown here:* "
                         + _cut(", ".join(f"`{_inline(c.label)}`" for c in rest), 2_000))
            lines.append("")
            break
        lines += block
    return lines


def _change_block(result: Result, change: Change) -> list[str]:
    role = result.roles.get(change.id) or "not labelled"
    origin = result.origins.get(change.id)
    where = f" · from `{origin.short}` {_inline(origin.subject)}" if origin else ""
    text = change.hunk.text if change.hunk is not None else f"{change.label}\n"
    if _size(text) > HUNK_LIMIT:
        text = _cut(text, HUNK_LIMIT) + "\n... (cut; the patch has it whole)\n"
    fence = _fence(text)
    return ["<details>", f"<summary><code>{_html(change.label)}</code> — {role}"
            f"{_html(where)}</summary>", "", f"{fence}diff", text.rstrip("\n"), fence, "",
            "</details>", ""]


def _tail(result: Result | None, info: ReportInfo) -> list[str]:
    lines = ["<details>", "<summary>Reproduce</summary>", "", "```sh", wynot_command(info)]
    if result is not None:
        steps = reproduce_steps(result, info)
        if steps:
            lines += ["", "# or by hand:", *steps]
    lines += ["```", "", "</details>", ""]
    summary = summary_line(result) if result is not None else ""
    lines.append(f"<sub>wynot {info.version} · exit code {info.exit_code}"
                 f"{' · ' + _html(summary) if summary else ''}</sub>")
    return lines


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _inline(text: str) -> str:
    return text.replace("`", "'").replace("\n", " ")


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in text.splitlines())


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _cut(text: str, limit: int) -> str:
    return text.encode("utf-8", "surrogateescape")[:limit].decode("utf-8", "ignore")
