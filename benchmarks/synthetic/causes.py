"""The checked functions of the synthetic project and the regressions planted in them.

run_test.py calls a handful of these functions and compares the results with the
values below. One of them (``--causes 1``) or one interacting pair (``--causes 2``)
gets a behaviour change between GOOD and BAD; the others never change.

Each entry: ``lines`` (GOOD source, no leading blank lines), ``mutate`` (line index ->
BAD lines), ``context`` (the BAD lines of the same region when the cause uses a new
helper: ``{helper_mod}`` is replaced by the helper's module), ``helper`` (that helper's
source), ``checks`` (an expression calling the function and its GOOD value) and
``stdlib`` (modules the source needs).
"""

from __future__ import annotations

SINGLE = {
    "page_count": {
        "lines": [
            "def page_count(total, per_page=20):",
            '    """Return how many pages are needed to show *total* items.',
            "",
            "    A partial last page counts as a full page; an empty listing has no pages.",
            '    """',
            "    if per_page <= 0:",
            '        raise ValueError("per_page must be positive")',
            "    pages = total // per_page",
            "    if total % per_page:",
            "        pages += 1",
            "    return pages",
        ],
        "mutate": {8: ["    if total % per_page > 1:"]},
        "context": {7: ["    from {helper_mod} import ceil_div",
                     "    pages = ceil_div(total - 1, per_page)"], 8: [], 9: []},
        "helper": [
            "def ceil_div(numerator, denominator):",
            '    """Divide and round up; *denominator* must be positive."""',
            "    return -(-numerator // denominator)",
        ],
        "checks": [("page_count(41, 20)", "3"), ("page_count(40, 20)", "2")],
        "stdlib": [],
    },
    "window_slices": {
        "lines": [
            "def window_slices(seq, size, step=1):",
            '    """Return every window of *size* consecutive elements of *seq*.',
            "",
            "    Windows start every *step* elements; a short tail is dropped.",
            '    """',
            "    if size <= 0 or step <= 0:",
            '        raise ValueError("size and step must be positive")',
            "    windows = []",
            "    for start in range(0, len(seq) - size + 1, step):",
            "        windows.append(seq[start : start + size])",
            "    return windows",
        ],
        "mutate": {8: ["    for start in range(0, len(seq) - size, step):"]},
        "context": {8: ["    from {helper_mod} import window_starts",
                     "    for start in window_starts(len(seq) - 1, size, step):"]},
        "helper": [
            "def window_starts(length, size, step=1):",
            '    """Return the start offsets of the full windows of *size* in *length* items."""',
            "    return range(0, length - size + 1, step)",
        ],
        "checks": [("len(window_slices(list(range(10)), 3))", "8"),
                ("window_slices('abcd', 2, step=2)", "['ab', 'cd']")],
        "stdlib": [],
    },
    "retry_delays": {
        "lines": [
            "def retry_delays(attempts, base=0.5, factor=2.0, cap=30.0):",
            '    """Return the pause before each retry, growing by *factor* up to *cap*.',
            "",
            "    The first retry waits *base* seconds.",
            '    """',
            "    delays = []",
            "    delay = base",
            "    for _ in range(attempts):",
            "        delays.append(min(delay, cap))",
            "        delay *= factor",
            "    return delays",
        ],
        "mutate": {0: ["def retry_delays(attempts, base=0.5, factor=1.5, cap=30.0):"]},
        "context": {9: ["        from {helper_mod} import next_delay",
                     "        delay = next_delay(delay, factor)"]},
        "helper": [
            "def next_delay(delay, factor, jitter=0.25):",
            '    """Return the delay after *delay*: scaled by *factor*, plus *jitter*."""',
            "    return delay * factor + jitter",
        ],
        "checks": [("retry_delays(4)", "[0.5, 1.0, 2.0, 4.0]"), ("retry_delays(0)", "[]")],
        "stdlib": [],
    },
    "truncate_label": {
        "lines": [
            'def truncate_label(text, width=24, marker="..."):',
            '    """Shorten *text* to at most *width* characters, ending with *marker*.',
            "",
            "    Runs of whitespace collapse to one space first.",
            '    """',
            '    text = " ".join(text.split())',
            "    if len(text) <= width:",
            "        return text",
            "    keep = width - len(marker)",
            "    return text[:keep].rstrip() + marker",
        ],
        "mutate": {8: ["    keep = width - len(marker) - 1"]},
        "context": {8: ["    from {helper_mod} import visible_width",
                     "    keep = visible_width(width, marker)"]},
        "helper": [
            "def visible_width(width, marker):",
            '    """Return how many characters of text fit next to *marker* in *width*."""',
            "    return max(0, width - len(marker) - 1)",
        ],
        "checks": [('truncate_label("abcdefghij" * 4, 12)', "'abcdefghi...'"),
                ('truncate_label("short")', "'short'")],
        "stdlib": [],
    },
    "percentile": {
        "lines": [
            "def percentile(values, pct):",
            '    """Return the *pct* percentile of *values* (nearest-rank method).',
            "",
            "    *pct* is between 0 and 100; an empty sequence raises ValueError.",
            '    """',
            "    if not values:",
            '        raise ValueError("percentile of an empty sequence")',
            "    ordered = sorted(values)",
            "    rank = max(1, math.ceil(pct / 100 * len(ordered)))",
            "    return ordered[rank - 1]",
        ],
        "mutate": {9: ["    return ordered[rank]"]},
        "context": {8: ["    from {helper_mod} import nearest_rank",
                     "    rank = nearest_rank(pct, len(ordered)) + 1"]},
        "helper": [
            "def nearest_rank(pct, count):",
            '    """Return the 1-based nearest rank of percentile *pct* among *count* values."""',
            "    return max(1, -(-pct * count // 100))",
        ],
        "checks": [("percentile([5, 1, 4, 2, 3], 40)", "2"), ("percentile([7], 90)", "7")],
        "stdlib": ["math"],
    },
    "parse_duration": {
        "lines": [
            'def parse_duration(text, default_unit="s"):',
            '    """Parse a duration such as 90, 90s, 15m or 2h into seconds.',
            "",
            "    A bare number is in *default_unit*.",
            '    """',
            "    text = text.strip().lower()",
            '    units = {"s": 1, "m": 60, "h": 3600}',
            "    if text and text[-1] in units:",
            "        return float(text[:-1]) * units[text[-1]]",
            "    return float(text) * units[default_unit]",
        ],
        "mutate": {0: ['def parse_duration(text, default_unit="m"):']},
        "context": {9: ["    from {helper_mod} import unit_seconds",
                     '    return float(text) * unit_seconds("m")']},
        "helper": [
            "def unit_seconds(unit):",
            '    """Return the length of one *unit* (s, m or h) in seconds."""',
            '    return {"s": 1, "m": 60, "h": 3600}[unit]',
        ],
        "checks": [('parse_duration("90")', "90.0"), ('parse_duration("2h")', "7200.0")],
        "stdlib": [],
    },
}

# Pairs for --causes 2: the definer's default changes and the caller stops passing
# the value explicitly. Each change alone keeps the behaviour; together they break it.
PAIRS = {
    "to_amount": {
        "definer": [
            "def to_amount(value, unit=None):",
            '    """Convert an integer *value* to a decimal amount.',
            "",
            '    *unit* is "cents" (the default) or "units".',
            '    """',
            "    if unit is None:",
            '        unit = "cents"',
            '    if unit == "cents":',
            "        return value / 100",
            "    return float(value)",
        ],
        "definer_mutate": {6: ['        unit = "units"']},
        "definer_context": {6: ["        from {helper_mod} import default_money_unit",
                             "        unit = default_money_unit()"]},
        "helper": [
            "def default_money_unit():",
            '    """Return the unit that bare amounts are given in."""',
            '    return "units"',
        ],
        "caller_name": "invoice_total",
        "caller": [
            "def invoice_total(lines):",
            '    """Sum the line amounts of an invoice, given in cents."""',
            "    total = 0.0",
            "    for line in lines:",
            '        total += to_amount(line, unit="cents")',
            "    return round(total, 2)",
        ],
        "caller_mutate": {4: ["        total += to_amount(line)"]},
        "checks": [("invoice_total([1250, 199])", "14.49"), ("invoice_total([])", "0.0")],
    },
    "parse_timeout": {
        "definer": [
            "def parse_timeout(text, unit=None):",
            '    """Parse a timeout setting; a bare number is in *unit* (seconds by default)."""',
            "    if unit is None:",
            '        unit = "s"',
            '    scale = {"s": 1.0, "ms": 0.001}[unit]',
            "    return float(text) * scale",
        ],
        "definer_mutate": {3: ['        unit = "ms"']},
        "definer_context": {3: ["        from {helper_mod} import default_timeout_unit",
                             "        unit = default_timeout_unit()"]},
        "helper": [
            "def default_timeout_unit():",
            '    """Return the unit of bare timeout numbers in configuration files."""',
            '    return "ms"',
        ],
        "caller_name": "connect_timeout",
        "caller": [
            "def connect_timeout(settings):",
            '    """Return the connect timeout in seconds from a settings mapping."""',
            '    raw = settings.get("connect_timeout", "30")',
            '    return parse_timeout(raw, unit="s")',
        ],
        "caller_mutate": {3: ["    return parse_timeout(raw)"]},
        "checks": [('connect_timeout({"connect_timeout": "12"})', "12.0"),
                ("connect_timeout({})", "30.0")],
    },
    "join_segments": {
        "definer": [
            "def join_segments(parts, sep=None):",
            '    """Join path *parts* with *sep* ("/" unless given), skipping empty parts."""',
            "    if sep is None:",
            '        sep = "/"',
            "    return sep.join(part.strip(sep) for part in parts if part)",
        ],
        "definer_mutate": {3: ['        sep = "."']},
        "definer_context": {3: ["        from {helper_mod} import default_separator",
                             "        sep = default_separator()"]},
        "helper": [
            "def default_separator():",
            '    """Return the separator of dotted route names."""',
            '    return "."',
        ],
        "caller_name": "build_route",
        "caller": [
            "def build_route(*segments):",
            '    """Return the URL route for *segments*, always starting with a slash."""',
            '    route = join_segments(segments, sep="/")',
            '    return "/" + route',
        ],
        "caller_mutate": {2: ["    route = join_segments(segments)"]},
        "checks": [('build_route("api", "v1", "users")', "'/api/v1/users'"),
                ('build_route("health")', "'/health'")],
    },
}


def reserved_names() -> list[str]:
    """Every function name used here, so that generated names never collide with them."""
    names: list[str] = []
    for name, spec in SINGLE.items():
        names += [name, spec["helper"][0].split("(")[0][4:]]
    for name, spec in PAIRS.items():
        names += [name, spec["caller_name"], spec["helper"][0].split("(")[0][4:]]
    return names
