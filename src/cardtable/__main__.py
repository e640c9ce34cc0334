"""``python -m cardtable``: the terminal front end (see :mod:`cardtable.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    main()
