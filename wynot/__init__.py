"""wynot: find the changes between two git commits that make a test fail."""

from __future__ import annotations

__version__ = "0.1.0"
