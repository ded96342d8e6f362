"""`python -m app` is the same as the `nightshift` command."""

from .cli import main

main()
