"""Clusters by change in languages tree-sitter has no grammar for here: Pygments' lexers."""

from __future__ import annotations

import json
import shutil

import pytest
from test_clusters import analysed, cluster_with, hunk, pad

from cli_helpers import run_wynot
from wynot.analysis.lexers import lexed_tokens, lexer_for


def test_lexers_read_names_strings_and_declarations_not_keywords_or_comments() -> None:
    ruby = b"# old_name\ndef parse(text)\n  Registry.call('d4/m1', :render, text)\nend\n"
    assert lexer_for("lib/parser.rb", ruby) == "ruby"
    found = lexed_tokens("ruby", ruby)
    assert found.sequence == ("parse", "text", "Registry", "call", "d4", "m1", "render", "text")
    assert found.defined == {"parse"}
    perl = b"sub parse {\n    my ($text) = @_;\n    return $text;\n}\n"
    assert lexer_for("lib/Parser.pm", perl) == "perl"
    assert lexed_tokens("perl", perl).defined == {"parse"}
    # a hunk of PHP has no opening tag
    assert lexed_tokens("php", b"function parse($text) { return $text; }\n").defined == {"parse"}
    assert lexer_for("README.md", b"# parse\n") is None  # prose
    assert lexer_for("notes.txt", b"parse\n") is None


def test_a_ruby_method_renamed_with_the_strings_that_name_it_is_one_cluster(make_repo) -> None:
    c = pad("#")
    modules = {f"lib/m{i}.rb": b"def f0(x)\n  x + %d\nend\n" % i + c + b"LIMIT = 1\n"
               for i in range(4)}
    table = b"TABLE = [\n" + b"".join(b'  ["m%d", "f0"],\n' % i for i in range(4)) + b"]\n"
    good = {**modules, "lib/table.rb": table}
    bad = dict(good)
    bad["lib/m2.rb"] = modules["lib/m2.rb"].replace(b"def f0(", b"def f0_v2(")
    bad["lib/m3.rb"] = modules["lib/m3.rb"].replace(b"LIMIT = 1", b"LIMIT = 3")
    bad["lib/table.rb"] = table.replace(b'"m2", "f0"', b'"m2", "f0_v2"')
    diff, analysis = analysed(make_repo("ruby"), good, bad)
    rename = {hunk(diff, "lib/m2.rb", "f0_v2"), hunk(diff, "lib/table.rb", "f0_v2")}
    assert cluster_with(analysis, min(rename)) == rename
    assert cluster_with(analysis, hunk(diff, "lib/m3.rb", "LIMIT = 3")) == frozenset()


def perl_module(name: str, names: tuple[str, str], values: tuple[int, int], note: str) -> bytes:
    first, second = names
    return (b"package %s;\nuse strict;\nuse warnings;\n\n# %s\nsub %s {\n    return %d;\n}\n"
            % (name.encode(), note.encode(), first.encode(), values[0])
            + pad("#", 8) + b"\nsub %s {\n    return %d;\n}\n\n1;\n"
            % (second.encode(), values[1]))


PERL_TEST = b"""use strict;
use warnings;
use lib 'lib';
our @TABLE;
require './table.pl';
my $sum = 0;
for my $entry (@TABLE) {
    my ($module, $name) = @$entry;
    require "$module.pm";
    my $code = $module->can($name)
        or do { print STDERR "registry: $module has no function $name\\n"; exit 125 };
    $sum += $code->();
}
print "sum $sum\\n";
exit($sum == 318 ? 0 : 1);
"""


def perl_table(names: dict[str, tuple[str, str]]) -> bytes:
    rows = b"".join(b'    ["%s", "%s"], ["%s", "%s"],\n'
                    % (m.encode(), a.encode(), m.encode(), b.encode())
                    for m, (a, b) in sorted(names.items()))
    return b"our @TABLE = (\n" + rows + b");\n1;\n"


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_perl_renames_linked_by_name_at_run_time_are_never_split(make_repo) -> None:
    """Six Perl modules define f0 and f1; a table of (module, name) strings is
    resolved with ``can`` when the test runs. Three renames (two to the same new
    name) change a definition and its table entry in another file; three comments
    change; the cause is one value. Read by Perl's lexer, each rename is a cluster:
    no configuration splits one, so no test is UNRESOLVED."""
    names = {f"M{i}": ("f0", "f1") for i in range(6)}
    good = {f"lib/M{i}.pm": perl_module(f"M{i}", names[f"M{i}"], (i * 10 + 1, i * 10 + 2),
                                        f"module {i}") for i in range(6)}
    good |= {"table.pl": perl_table(names), "test.pl": PERL_TEST}
    renamed = {**names, "M1": ("f0_v2", "f1"), "M3": ("f0", "f1_v2"), "M5": ("f0_v2", "f1")}
    bad = dict(good)
    for i in range(6):
        name = f"M{i}"
        note = f"module {i}" if i % 2 else f"module {i}, reviewed"
        value = 43 if i == 4 else i * 10 + 2
        bad[f"lib/{name}.pm"] = perl_module(name, renamed[name], (i * 10 + 1, value), note)
    bad["table.pl"] = perl_table(renamed)
    repo = make_repo("perl")
    first, second = repo.commit(good), repo.commit(bad)
    done = run_wynot(first, second, "--json", "--no-cache", "--", "perl", "test.pl",
                     cwd=repo.path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (cause,) = report["changes"]  # f1's value of M4, not its comment at lines 2-8
    assert cause["path"] == "lib/M4.pm" and cause["role"] == "cause"
    assert int(cause["label"].split(":-")[1].split(",")[0]) > 8
    assert report["counts"]["unresolved"] == 0
