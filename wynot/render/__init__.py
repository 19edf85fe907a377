"""Reports from :mod:`wynot.result` data: JSON, Markdown, GitHub, and live progress."""
