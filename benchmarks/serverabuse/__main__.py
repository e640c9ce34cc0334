"""``python -m benchmarks.serverabuse``: the same as ``benchmarks/server_abuse.py``."""

from .cli import main

if __name__ == "__main__":
    main()
