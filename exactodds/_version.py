"""The version of exactodds: the one place it is written (pyproject.toml reads it from here).

Sheets print it; a plain constant, because looking it up through :mod:`importlib.metadata`
costs the CLI ~15-30 ms to import on every ``report``.
"""

VERSION = "0.3.0"
