"""wynot real-regression case: Pygments 2.11.2 -> 2.12.0.

Changelog of 2.12.0: "The Ada lexer has been moved to a separate file
(#2117)".

Pygments finds a lexer by name at run time: ``pygments/lexers/_mapping.py``
holds a table of ('pygments.lexers.MODULE', 'Name', aliases, ...) strings,
and ``get_lexer_by_name`` imports the module that the table names with
``__import__`` and takes the class from its ``__all__``. The lexer for
``ada`` comes from ``pygments.lexers.pascal`` in 2.11.2 and from
``pygments.lexers.ada`` in 2.12.0; both lex the sample below alike.

Exit 0: old behaviour (the lexer is pascal's). Exit 1: new behaviour (the
lexer is ada's). Exit 125: cannot judge (pygments does not import from this
tree, the lexer is not found or does not load, an unexpected exception, the
sample lexes otherwise, or the lexer comes from another module).
"""

import os
import sys
import warnings

sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def unresolved(why):
    print(f"UNRESOLVED: {why}")
    sys.exit(125)


try:
    import pygments
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Token
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import pygments.lexers failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(pygments.__file__).startswith(os.path.join(HERE, "pygments") + os.sep):
    unresolved(f"pygments imported from {pygments.__file__}, not from {HERE}")

SAMPLE = 'procedure Hello is\n   N : Integer := 42;\nbegin\n   Put_Line ("Hi");\nend Hello;\n'
# What both releases give for SAMPLE: (token type, text) without whitespace.
EXPECTED = [
    (Token.Keyword.Declaration, "procedure"), (Token.Name.Function, "Hello"),
    (Token.Keyword.Reserved, "is"), (Token.Name, "N"), (Token.Punctuation, ":"),
    (Token.Keyword.Type, "Integer"), (Token.Punctuation, ":="),
    (Token.Literal.Number.Integer, "42"), (Token.Punctuation, ";"),
    (Token.Keyword.Reserved, "begin"), (Token.Name, "Put_Line"), (Token.Punctuation, "("),
    (Token.Literal.String, '"Hi"'), (Token.Punctuation, ")"), (Token.Punctuation, ";"),
    (Token.Keyword.Reserved, "end"), (Token.Name.Function, "Hello"), (Token.Punctuation, ";"),
]

try:
    lexer = get_lexer_by_name("ada")
    tokens = [(t, v) for t, v in lexer.get_tokens(SAMPLE) if v.strip()]
except BaseException as exc:  # ClassNotFound, KeyError from the lexer cache, ...
    unresolved(f"the ada lexer: {type(exc).__name__}: {exc}")

if lexer.name != "Ada" or type(lexer).__name__ != "AdaLexer":
    unresolved(f"'ada' gave {type(lexer).__name__} named {lexer.name!r}")
if tokens != EXPECTED:
    unresolved(f"the sample lexes as {tokens!r}")
module = type(lexer).__module__
if module == "pygments.lexers.pascal":
    print("PASS: the Ada lexer comes from pygments.lexers.pascal")
    sys.exit(0)
if module == "pygments.lexers.ada":
    print("FAIL: the Ada lexer comes from pygments.lexers.ada")
    sys.exit(1)
unresolved(f"the Ada lexer comes from {module}")
