"""`python -m exact61` runs the command line."""

from exact61.cli.main import run

run()
