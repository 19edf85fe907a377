"""lexical.lines_with: the lines holding a word, as splitting the decoded text gives them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wynot.analysis.lexical import lines_with, text_of

# Pieces that make the cases that matter: the word, line breaks of every kind
# (as bytes and UTF-8), broken UTF-8 next to a break, a NUL.
PIECES = [b"import", b"imp", b"ort", b"x", b" ", b"\n", b"\r", b"\r\n", b"\x0b", b"\x0c",
          b"\x1c", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80", b"\xc2", b"\x85",
          b"\xff", b"\xe9t\xe9", "é".encode(), b"\0"]


def reference(data: bytes, word: str) -> list[str]:
    return [line for line in text_of(data).splitlines() if word in line]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_the_same_lines_as_the_decoded_text_split(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    assert lines_with(data, "import") == reference(data, "import")


def test_examples() -> None:
    data = b"import os\r\nx = 1\nfrom a import (b,\n    c)\n\xff import z\n"
    assert lines_with(data, "import") == ["import os", "from a import (b,", "\ufffd import z"]
    assert lines_with(b"import a\x0cimport b", "import") == ["import a", "import b"]
    assert lines_with(b"\0import a\n", "import") == []  # binary: no text at all
    assert lines_with(b"x = 1\n", "import") == []
