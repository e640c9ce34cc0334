"""Server abuse: the latency of ordinary tables while the server is abused.

The entry script; the benchmark itself, what it measures and how, is the package
``benchmarks/serverabuse/`` (its ``__init__.py`` is the full description). Run:

    .venv/bin/python benchmarks/server_abuse.py [--seconds 15] [--tables 8]
        [--scenarios room_flood,message_flood,connection_flood,slow_clients,big_bodies,
         replays,ai_rooms] [--db URL | --url URL [--server-pid PID]] [--json FILE]
    .venv/bin/python benchmarks/server_abuse.py --startup [--startup-rooms 10000]

or ``.venv/bin/python -m benchmarks.serverabuse`` with the same options.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # as when run as a script
from serverabuse.cli import main

if __name__ == "__main__":
    main()
