"""``python -m benchmarks.serverload``: the same as ``benchmarks/server_load.py``."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    main()
