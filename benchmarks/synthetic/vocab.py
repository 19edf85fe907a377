"""Word lists and code templates for the synthetic project generator (generate.py).

Everything here is data: names for packages, modules, functions and constants,
docstring and comment sentences, and the bodies functions are built from. A
body template is a list of lines with placeholders that generate.py fills in:

    {p0}  the first parameter (or ``self.<attr>`` inside a method)
    {p1}  the second parameter
    {v}   the local variable that holds the result (renamed by "refactor" edits)

Every template ends with ``return {v}`` so that a call can be added just before it.
"""

from __future__ import annotations

# Top-level areas of the project (proj/<area>/).
AREAS = [
    "net", "util", "storage", "auth", "core", "api", "cli", "config", "cache", "crypto",
    "db", "events", "jobs", "metrics", "media", "plugins", "report", "sched", "search",
    "text", "ui", "web", "mail", "billing", "geo", "sync", "admin", "audit", "build",
    "deploy", "feeds", "forms", "notify", "render", "rpc", "stats", "stream", "users",
    "vcs", "workflow", "ingest", "export", "ledger", "inventory", "catalog", "pricing",
]

# Sub-package names (proj/<area>/<sub>/...).
SUBAREAS = [
    "http", "smtp", "dns", "ftp", "tls", "ws", "proto", "client", "server", "backends",
    "drivers", "adapters", "formats", "codecs", "parsers", "filters", "handlers", "models",
    "views", "widgets", "themes", "layout", "fonts", "images", "audio", "video", "sql",
    "kv", "blob", "index", "query", "schema", "migrations", "fixtures", "common", "base",
    "contrib", "extras", "experimental", "internal", "impl", "policy", "rules", "tasks",
    "workers", "hooks", "middleware", "routing", "sessions", "oauth", "ldap", "saml",
    "keys", "certs", "hashing", "signing", "ciphers", "compress", "archive", "csvio",
    "xml", "markup", "tables", "charts", "exporters", "importers", "remote", "local",
    "memory", "disk", "cloud", "batch", "realtime", "legacy_api", "v2", "admin_ui",
    "reports", "alerts", "quotas", "limits", "tenants", "regions", "scoring", "ranking",
]

# Module base names (proj/.../<name>.py). Plural nouns and roles; disjoint from PARAMS.
MODULE_NAMES = [
    "headers", "cookies", "tokens", "packets", "routes", "buffers", "frames", "chunks",
    "paths", "queries", "digests", "cursors", "batches", "spans", "labels", "fields",
    "columns", "nodes", "edges", "graphs", "signals", "messages", "replies", "requests",
    "responses", "addresses", "hosts", "ports", "groups", "roles", "policies", "tickets",
    "invoices", "orders", "prices", "amounts", "quotas_table", "windows", "intervals",
    "timestamps", "durations", "versions", "tags", "branches", "commits", "patches",
    "blobs", "secrets", "nonces", "certificates", "chains", "leases", "locks", "slots",
    "shards", "replicas", "snapshots", "backups", "layers", "styles", "colors", "glyphs",
    "pixels", "thumbnails", "pages", "sections", "paragraphs", "sentences", "locales",
    "currencies", "sensors", "readings", "codec", "pool", "client", "server", "registry",
    "loader", "writer", "reader", "store", "router", "scheduler", "planner", "tracker",
    "formatter", "validator", "helpers", "common", "core_map", "errors_map", "resolver",
    "dispatcher", "collector", "builder", "encoder", "decoder", "scanner", "lexer",
    "matcher", "sampler", "counters", "gauges", "timers", "traces", "hooks_table",
    "filters_chain", "mappers", "converters", "serializers", "normalizers", "checks",
    "limits_table", "throttle", "backoff", "retries", "streams", "sinks", "sources",
    "feeds_index", "manifests", "bundles", "assets", "templates", "widgets_state",
]

# Verbs of function names, and synonyms used when a function is renamed.
VERBS = [
    "parse", "load", "read", "write", "encode", "decode", "format", "render", "build",
    "compute", "collect", "merge", "split", "normalize", "validate", "resolve", "lookup",
    "fetch", "store", "flush", "scan", "match", "filter", "sort", "group", "count",
    "measure", "check", "apply", "convert", "extract", "expand", "compress", "escape",
    "quote", "strip", "join", "wrap", "pack", "unpack", "sign", "verify", "hash", "index",
    "rank", "score", "select", "prune", "trim", "register", "dispatch", "schedule", "emit",
    "track", "sample", "clamp", "make", "update", "reset", "refresh",
]

VERB_SYNONYMS = {
    "parse": ["decode", "read", "scan"], "load": ["read", "fetch", "open"],
    "read": ["load", "fetch"], "write": ["store", "emit", "save"], "encode": ["pack", "serialize"],
    "decode": ["parse", "unpack"], "format": ["render", "describe"], "render": ["format", "draw"],
    "build": ["make", "create", "assemble"], "compute": ["calculate", "derive"],
    "collect": ["gather", "accumulate"], "merge": ["combine", "join"],
    "split": ["partition", "divide"],
    "normalize": ["canonicalize", "clean"], "validate": ["check", "verify"],
    "resolve": ["lookup", "find"], "lookup": ["find", "resolve"], "fetch": ["get", "load"],
    "store": ["save", "put"], "flush": ["drain", "commit"], "scan": ["walk", "inspect"],
    "match": ["test", "compare"], "filter": ["select", "keep"], "sort": ["order", "arrange"],
    "group": ["bucket", "cluster"], "count": ["tally", "measure"], "measure": ["estimate", "size"],
    "check": ["ensure", "validate"], "apply": ["run", "execute"], "convert": ["translate", "cast"],
    "extract": ["pull", "take"], "expand": ["inflate", "unfold"], "compress": ["deflate", "shrink"],
    "escape": ["sanitize", "encode"], "quote": ["escape", "wrap"], "strip": ["trim", "clean"],
    "join": ["concat", "combine"], "wrap": ["enclose", "box"], "pack": ["encode", "bundle"],
    "unpack": ["decode", "unbundle"], "sign": ["seal", "stamp"], "verify": ["check", "confirm"],
    "hash": ["digest", "fingerprint"], "index": ["catalog", "map"], "rank": ["order", "score"],
    "score": ["rate", "rank"], "select": ["pick", "choose"], "prune": ["trim", "drop"],
    "trim": ["prune", "cut"], "register": ["add", "enroll"], "dispatch": ["route", "send"],
    "schedule": ["plan", "queue"], "emit": ["publish", "send"], "track": ["record", "follow"],
    "sample": ["pick", "draw"], "clamp": ["bound", "limit"], "make": ["build", "create"],
    "update": ["refresh", "patch"], "reset": ["clear", "restart"], "refresh": ["reload", "update"],
}

NOUNS = [
    "header", "cookie", "token", "record", "packet", "route", "session", "buffer", "config",
    "entry", "frame", "chunk", "path", "query", "digest", "cursor", "batch", "span",
    "metric", "label", "field", "column", "node", "edge", "event", "signal", "message",
    "reply", "request", "response", "address", "host", "port", "user", "group", "role",
    "policy", "rule", "ticket", "invoice", "order", "item", "price", "quota", "window",
    "interval", "timestamp", "duration", "version", "tag", "branch", "commit", "patch",
    "key", "secret", "cipher", "nonce", "certificate", "chain", "job", "task", "worker",
    "lease", "lock", "slot", "shard", "replica", "snapshot", "backup", "layer", "style",
    "color", "glyph", "pixel", "image", "thumbnail", "page", "section", "paragraph",
    "sentence", "word", "locale", "currency", "sensor", "reading", "manifest", "bundle",
    "asset", "template", "schema", "mapping", "filter", "sink", "source", "feed", "alert",
    "tenant", "region", "account", "profile", "device", "channel", "topic", "subscriber",
]

QUALIFIERS = ["", "", "", "", "_line", "_list", "_map", "_text", "_bytes", "_safe", "_all",
              "_once", "_raw", "_items", "_many", "_fields", "_stream"]
RENAME_SUFFIXES = ["_v2", "_safe", "_strict", "_all", "_impl", "_checked", "_fast", "_new"]

ROLES = ["Reader", "Writer", "Cache", "Pool", "Builder", "Parser", "Registry", "Manager",
         "Tracker", "Buffer", "Client", "Index", "Queue", "Router", "Store", "Formatter",
         "Validator", "Collector", "Sampler", "Resolver"]

CONST_SUFFIXES = [("LIMIT", "int"), ("TIMEOUT", "float"), ("RETRIES", "int"),
                  ("SEPARATOR", "sep"), ("ENCODING", "enc"), ("FORMATS", "tuple"),
                  ("BATCH_SIZE", "int"), ("WINDOW", "int"), ("THRESHOLD", "float"),
                  ("PREFIX", "prefix"), ("MAX_AGE", "int"), ("RATIO", "float")]

# Local variable names for {v} (refactors rename one to another).
RESULT_VARS = ["result", "collected", "out", "found", "acc", "picked", "output", "gathered",
               "values_out", "bucket_map"]

# Parameter names; never used as module names or result variables.
PARAMS = {"items", "entries", "values", "rows", "data", "text", "source", "mapping",
          "options", "settings", "weights", "samples", "blob", "raw", "spec", "base",
          "overrides", "limit", "cap", "width", "size", "key", "name", "scale", "excluded",
          "prefix_len", "max_items", "chunk_size", "defaults", "updates", "fields_in",
          "words", "events", "block_size", "divisor", "skip"}

# Parameter names for hooks passed as default arguments (def f(x, hook=mod.fn)).
HOOK_PARAMS = ["hook", "convert", "handler", "callback", "strategy", "formatter", "loader",
               "checker", "transform", "normalizer"]

EMPTY = {"list": "[]", "dict": "{}", "str": '""', "float": "0.0", "set": "set()"}

# Body templates. "tweak": (line index, old, new) applied on the BAD side by a
# constant-tweak edit. "p1_default": kind of default for {p1} ("int", "tuple", None).
# "sample": arguments a module-level call passes at import time; the body (with
# any of its tweaks) must run on them without raising.
BODIES = [
    {
        "p0": ["items", "entries", "values", "rows"], "p1": ["limit", "cap", "max_items"],
        "p1_default": "int", "empty": "list",
        "sample": "['alpha', '', 'beta'], 2",
        "summary": ["Collect the non-empty {noun}s of *{p0}*, at most *{p1}* of them.",
                 "Return the first *{p1}* {noun}s found in *{p0}*, skipping blanks.",
                 "Gather {noun} entries from *{p0}* until *{p1}* are found."],
        "lines": [
            "{v} = []",
            "for entry in {p0}:",
            "    if not entry:",
            "        continue",
            "    {v}.append(entry)",
            "    if len({v}) >= {p1}:",
            "        break",
            "return {v}",
        ],
        "tweaks": [(5, ">=", ">"), (2, "not entry", "entry is None")],
    },
    {
        "p0": ["items", "words", "entries"], "p1": ["limit", "max_items"], "p1_default": "int",
        "empty": "dict",
        "sample": "['Alpha', 'beta'], 8",
        "summary": ["Index the {noun}s of *{p0}* by their normalised key.",
                 "Map each distinct {noun} key in *{p0}* to its first position.",
                 "Build a lookup table of {noun} keys found in *{p0}*."],
        "lines": [
            "{v} = {}",
            "for position, entry in enumerate({p0}):",
            "    key = str(entry).strip().lower()",
            "    if not key:",
            "        continue",
            "    {v}.setdefault(key, position)",
            "    if len({v}) >= {p1}:",
            "        break",
            "return {v}",
        ],
        "tweaks": [(2, ".lower()", ".casefold()"), (6, ">=", ">")],
    },
    {
        "p0": ["values", "words", "fields_in"], "p1": ["width", "limit"], "p1_default": "int",
        "empty": "str",
        "sample": "['x', 'y'], 40",
        "summary": ["Join the {noun} parts of *{p0}* into one line of at most *{p1}* characters.",
                 "Render *{p0}* as a single {noun} string, cut at *{p1}* characters.",
                 "Format the {noun} values of *{p0}* on one line."],
        "lines": [
            "parts = list(map(str, filter(None, {p0})))",
            "{v} = \"{sep}\".join(parts)",
            "if len({v}) > {p1}:",
            "    {v} = {v}[: {p1}].rstrip()",
            "return {v}",
        ],
        "tweaks": [(3, ".rstrip()", ""), (0, "map(str,", "map(repr,")],
    },
    {
        "p0": ["items", "values", "entries"], "p1": ["limit", "cap"], "p1_default": "int",
        "empty": "list",
        "sample": "['a', 'b'], 5",
        "summary": ["Validate the {noun} list *{p0}* and drop empty entries.",
                 "Check that *{p0}* holds at most *{p1}* {noun}s; return the non-empty ones.",
                 "Return the usable {noun}s of *{p0}*, rejecting oversized input."],
        "lines": [
            "if {p0} is None:",
            "    raise ValueError(\"{noun} list is required\")",
            "if isinstance({p0}, (str, bytes)):",
            "    {p0} = [{p0}]",
            "{v} = list(filter(None, {p0}))",
            "if len({v}) > {p1}:",
            "    raise ValueError(\"too many {noun} entries: %d\" % len({v}))",
            "return {v}",
        ],
        "tweaks": [(5, ">", ">="),
                   (4, "list(filter(None, {p0}))", "[entry for entry in {p0} if entry]")],
    },
    {
        "p0": ["weights", "samples", "values"], "p1": ["scale", "divisor"], "p1_default": "float",
        "empty": "float",
        "sample": "[1, 2, 3], 2.0",
        "summary": ["Score the {noun} by the rank-weighted sum of *{p0}*.",
                 "Return the {noun} score of *{p0}*, divided by *{p1}* when given.",
                 "Compute a weighted {noun} score from *{p0}*."],
        "lines": [
            "{v} = 0.0",
            "for rank, weight in enumerate({p0}, start=1):",
            "    if weight is None:",
            "        continue",
            "    {v} += float(weight) / rank",
            "if {p1}:",
            "    {v} = round({v} / {p1}, 4)",
            "return {v}",
        ],
        "tweaks": [(6, ", 4)", ", 6)"), (1, "start=1", "start=2")],
    },
    {
        "p0": ["mapping", "options", "settings"], "p1": ["key", "name"], "p1_default": None,
        "empty": "none",
        "sample": "{'default': 1}, 'mode'",
        "summary": ["Look up the {noun} setting *{p1}* in *{p0}*, case-insensitively.",
                 "Return the {noun} value stored under *{p1}*, or the default entry.",
                 "Find *{p1}* in the {noun} table *{p0}*."],
        "lines": [
            "{v} = {p0}.get({p1})",
            "if {v} is None:",
            "    {v} = {p0}.get(str({p1}).lower())",
            "if {v} is None:",
            "    {v} = {p0}.get(\"default\")",
            "return {v}",
        ],
        "tweaks": [(2, ".lower()", ".strip().lower()"), (4, "\"default\"", "\"*\"")],
    },
    {
        "p0": ["data", "blob", "raw"], "p1": ["size", "chunk_size", "block_size"],
        "p1_default": "int",
        "empty": "list",
        "sample": "'abcdef', 2",
        "summary": ["Cut *{p0}* into {noun} chunks of *{p1}* items.",
                 "Split the {noun} payload *{p0}* into pieces of at most *{p1}*.",
                 "Return *{p0}* as a list of {noun} blocks."],
        "lines": [
            "{v} = []",
            "step = max(1, int({p1}))",
            "for start in range(0, len({p0}), step):",
            "    piece = {p0}[start : start + step]",
            "    if piece:",
            "        {v}.append(piece)",
            "return {v}",
        ],
        "tweaks": [(1, "max(1,", "max(2,"), (4, "if piece", "if len(piece)")],
    },
    {
        "p0": ["base", "defaults"], "p1": ["overrides", "updates"], "p1_default": None,
        "empty": "dict",
        "sample": "{'a': 1}, {'b': 2}",
        "summary": ["Merge the {noun} settings *{p1}* into a copy of *{p0}*.",
                 "Return *{p0}* updated with *{p1}*; None values remove a {noun} key.",
                 "Combine two {noun} mappings, *{p1}* winning over *{p0}*."],
        "lines": [
            "{v} = dict({p0})",
            "for key, value in {p1}.items():",
            "    if value is None:",
            "        {v}.pop(key, None)",
            "    elif key not in {v}:",
            "        {v}[key] = value",
            "return {v}",
        ],
        "tweaks": [(4, "elif key not in {v}:", "else:"), (3, ".pop(key, None)", ".pop(key)")],
    },
    {
        "p0": ["events", "items", "words"], "p1": ["prefix_len", "width"], "p1_default": "int",
        "empty": "dict",
        "sample": "['ab', 'ac'], 1",
        "summary": ["Count the {noun}s of *{p0}* by their first *{p1}* characters.",
                 "Tally *{p0}* into {noun} buckets, most frequent first.",
                 "Return how often each {noun} prefix occurs in *{p0}*."],
        "lines": [
            "{v} = {}",
            "for entry in {p0}:",
            "    bucket = str(entry)[:{p1}]",
            "    {v}[bucket] = {v}.get(bucket, 0) + 1",
            "ordered = sorted({v}.items(), reverse=True)",
            "{v} = dict(ordered)",
            "return {v}",
        ],
        "tweaks": [(4, "reverse=True", "reverse=False"),
                   (2, "str(entry)", "repr(entry)")],
    },
    {
        "p0": ["spec", "text"], "p1": ["excluded", "skip"], "p1_default": "tuple", "empty": "list",
        "sample": "'debug,fast', ()",
        "summary": ["Parse the comma-separated {noun} flags in *{p0}*.",
                 "Return the sorted {noun} flags of *{p0}*, minus *{p1}*.",
                 "Split a {noun} flag list and drop the excluded ones."],
        "lines": [
            "{v} = set()",
            "for flag in str({p0}).split(\",\"):",
            "    flag = flag.strip().lower()",
            "    if flag and flag not in {p1}:",
            "        {v}.add(flag)",
            "{v} = sorted({v})",
            "return {v}",
        ],
        "tweaks": [(2, ".lower()", ".casefold()"), (1, "split(\",\")", "split(\";\")")],
    },
]

SEPARATORS = [", ", "; ", " | ", "/", ":", " ", "-"]

DETAILS = [
    "Empty entries are skipped.",
    "The input is not modified.",
    "The order of the input is preserved.",
    "Raises ValueError on malformed input.",
    "Safe to call from several threads.",
    "Used on the hot path of the {area} layer; keep it cheap.",
    "The result is cached by callers, not here.",
    "Returns a new object; callers may change it.",
    "Keys are compared case-insensitively.",
    "See the module docstring for the {noun} format.",
    "Older clients send trailing whitespace; it is ignored.",
    "This mirrors what the {area} service does on its side.",
    "The limit is inclusive.",
    "Unknown {noun} kinds are passed through unchanged.",
    "Callers must hold the {noun} lock.",
    "Kept small on purpose: it runs once per {noun}.",
]

COMMENTS = [
    "Fast path: nothing to do.",
    "Keep the original order; callers rely on it.",
    "Normalise early so that the lookups below stay cheap.",
    "TODO: revisit once the {noun} format is settled.",
    "The limit is inclusive, see the docstring.",
    "Avoid quadratic behaviour on long inputs.",
    "Older producers send trailing whitespace.",
    "This mirrors the behaviour of the {area} client.",
    "Do not raise here: the caller logs and continues.",
    "A missing {noun} is not an error at this point.",
    "Cheaper than a regular expression for short inputs.",
    "Counted from one, to match the {area} API.",
    "Values are trusted: they come from our own {noun} store.",
    "Bail out early on empty input.",
    "See issue 482 for why this is not a set.",
    "Intentionally lenient; strict checks happen upstream.",
    "Tuples are accepted for backwards compatibility.",
    "The copy keeps the caller's {noun} untouched.",
]

SPACER_SENTENCES = [
    "Helpers for {noun} handling.",
    "Everything below is internal to the {area} package.",
    "Public API of this module starts here.",
    "Compatibility helpers; keep their signatures stable.",
    "The functions below are pure and cheap to call.",
    "Conversions between the wire format and {noun} objects.",
    "Lookups used by the {area} request path.",
    "Small utilities shared by the {noun} code paths.",
    "Validation helpers; they raise ValueError on bad input.",
    "Formatting helpers used by reports and logs.",
]

MODULE_DOCS = [
    "{Area} {noun} helpers: parsing, validation and formatting.",
    "Utilities for {noun}s in the {area} layer.",
    "{Noun} handling for {area}.",
    "Internal {noun} machinery of the {area} package.",
    "Conversions and lookups for {area} {noun}s.",
    "{Noun} support code shared across {area}.",
]

TABLE_COMMENTS = [
    "Handlers by {noun} kind; looked up by name at dispatch time.",
    "Converters for each {noun} format.",
    "Registered {noun} hooks, applied in order.",
    "Strategies by name; configuration refers to these keys.",
]
TABLE_KEYS = ["json", "text", "raw", "csv", "default", "strict", "lenient", "fast", "legacy",
              "binary", "compact", "verbose"]
TABLE_BUILTINS = ["str", "repr", "bytes", "int", "float", "len", "sorted", "tuple", "list"]

# Descriptions of parameters for Google-style "Args:" sections; two variants each
# (a docstring edit switches to the other one).
ARG_DESC = {
    "items": ["the {noun}s to look at.", "{noun}s in any iterable; None entries are ignored."],
    "entries": ["the {noun} entries, in input order.", "raw {noun} entries as read from the wire."],
    "values": ["the {noun} values.", "{noun} values; anything str() accepts."],
    "rows": ["rows of {noun} data.", "{noun} rows, one per record."],
    "words": ["the words of the {noun}.", "{noun} words, already split."],
    "fields_in": ["the {noun} fields to join.", "{noun} fields; None is skipped."],
    "weights": ["one weight per {noun}, best first.", "{noun} weights; None means unknown."],
    "samples": ["{noun} samples, newest first.", "the measured {noun} samples."],
    "mapping": ["where to look the {noun} up.", "a dict-like {noun} table."],
    "options": ["the {noun} options.", "{noun} options as parsed from the settings file."],
    "settings": ["the {noun} settings.", "settings of the {noun} subsystem."],
    "data": ["the {noun} payload.", "bytes or str holding the {noun}."],
    "blob": ["the {noun} blob.", "raw {noun} bytes."],
    "raw": ["the raw {noun}.", "unparsed {noun} content."],
    "base": ["the {noun} defaults.", "the mapping to start from; not modified."],
    "defaults": ["the default {noun} settings.", "defaults for every {noun} key."],
    "overrides": ["{noun} settings that win.", "values that replace the defaults."],
    "updates": ["the {noun} updates.", "changes to apply, None removes a key."],
    "events": ["the {noun} events.", "events to count, in any order."],
    "spec": ["a comma-separated {noun} flag list.", "the {noun} flags as typed by the user."],
    "text": ["the {noun} text.", "text to parse; surrounding blanks are ignored."],
    "limit": ["at most this many {noun}s are kept.", "the maximum number of {noun}s."],
    "cap": ["upper bound on the {noun} count.", "the maximum, inclusive."],
    "max_items": ["stop after this many {noun}s.", "how many {noun}s to keep at most."],
    "width": ["maximum width in characters.", "the width to cut the {noun} at."],
    "scale": ["divide the score by this, if set.", "the normalisation factor."],
    "divisor": ["what to divide the score by.", "normalisation divisor; falsy means none."],
    "key": ["the {noun} key.", "the key to look up."],
    "name": ["the {noun} name.", "name of the {noun} setting."],
    "size": ["the {noun} chunk size.", "how many items go in one chunk."],
    "chunk_size": ["items per chunk.", "the {noun} chunk length."],
    "block_size": ["items per block.", "the {noun} block length."],
    "prefix_len": ["how many characters form a bucket.", "length of the {noun} prefix."],
    "excluded": ["flags to drop.", "{noun} flags that are ignored."],
    "skip": ["flags to leave out.", "{noun} flags to skip."],
}

RETURNS = {
    "list": ["A new list of {noun}s.", "The {noun}s found, in input order."],
    "dict": ["A new dict; the input is not modified.", "The {noun} table."],
    "str": ["The joined {noun} text.", "One line of {noun} text."],
    "float": ["The {noun} score.", "The score, rounded to a few digits."],
    "none": ["The value found, or None.", "The {noun} value or None."],
    "set": ["The sorted {noun} flags.", "A sorted list of flags."],
}

# Keyword parameters a function gains between the sides (callers start passing them).
NEW_PARAMS = ["strict", "lenient", "dedupe", "verbose", "use_cache", "validate", "keep_order",
              "allow_empty"]

INIT_COMMENTS = [
    "Computed once at import time.",
    "Built at import so that lookups on the request path stay cheap.",
    "Precomputed default; tests patch this name.",
    "Evaluated eagerly to fail fast on a broken configuration.",
]
