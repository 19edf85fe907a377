"""``python -m wynot`` is the same as the ``wynot`` command."""

from wynot.cli import main

main()
