"""What only the notebooks use: exercise checkers, single-cell helpers and one-picture figures.

Not part of the installed package; notebooks import it because they run from ``notebooks/``, tests
through ``tests/conftest.py``."""
