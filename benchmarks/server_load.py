"""Server load: N concurrent tables of bot clients over real WebSockets against one server, or,
with ``--processes 1,2``, against clusters of that many processes behind HAProxy (the tables
each held at p99 < 50 ms and the ratio 2 processes / 1 process, measured in the same run).

The entry script; the benchmark itself, and what it measures and how, is the package
``benchmarks/serverload/`` (its ``__init__.py`` is the full description). Run:

    .venv/bin/python benchmarks/server_load.py [--tables 100,500,1000] [--duration 20]
        [--think 0.5-1.5] [--client-procs 2] [--variant kaboo] [--db URL | --url URL]
        [--ai-tables N [--ai-level expert] [--ai-workers N]] [--processes 1,2]

or ``.venv/bin/python -m benchmarks.serverload`` with the same options.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # as when run as a script
from serverload.cli import main

if __name__ == "__main__":
    main()
