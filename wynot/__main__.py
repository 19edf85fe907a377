"""``python -m wynot`` is the same as the ``wynot`` command."""

from wynot.launch import main

main()
