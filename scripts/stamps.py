"""Which extras .venv already has: the install stamps of scripts/setup.

After installing a set of extras, scripts/setup leaves an empty file
``.venv/.installed-<extras>-<checksum>`` (``<extras>`` comma-separated, ``<checksum>`` that of
pyproject.toml and requirements/all.lock). Stamps of one checksum add up instead of replacing
each other: a later install only adds packages, so ``scripts/play`` (``tui``) and
``scripts/serve`` (``web``) never undo each other. A set containing ``dev`` installs the whole
lock, which holds every extra, so its stamp satisfies any request; anything else is
satisfied when the stamps of the current checksum together cover every extra asked for. Stamps
of another checksum are stale and are removed when a new one is written.

Usage (run with any Python 3.11+; standard library only)::

    python3 scripts/stamps.py check VENV EXTRAS CHECKSUM   # exit 0: installed, 1: install
    python3 scripts/stamps.py record VENV EXTRAS CHECKSUM  # after a successful install
"""

from __future__ import annotations

import sys
from pathlib import Path

PREFIX = ".installed-"
"""File name prefix of every stamp."""
FULL = "dev"
"""The extra whose install is the whole lock (every extra)."""


def parse_extras(text: str) -> frozenset[str]:
    """The set of extras in a comma-separated list (blanks ignored, lower-cased)."""
    return frozenset(part.strip().lower() for part in text.split(",") if part.strip())


def stamp_name(extras: frozenset[str], checksum: str) -> str:
    """The stamp file name for ``extras`` installed at ``checksum``."""
    return f"{PREFIX}{','.join(sorted(extras))}-{checksum}"


def read_stamps(venv: Path) -> list[tuple[frozenset[str], str]]:
    """Every stamp in ``venv`` as ``(extras, checksum)``."""
    out = []
    for path in sorted(venv.glob(PREFIX + "*")):
        extras, sep, checksum = path.name[len(PREFIX) :].rpartition("-")
        if sep:
            out.append((parse_extras(extras), checksum))
    return out


def is_installed(venv: Path, extras: frozenset[str], checksum: str) -> bool:
    """Whether a stamp of ``checksum`` in ``venv`` covers ``extras``.

    Installs only add packages, so the stamps of one checksum add up; a full (``dev``) stamp
    covers everything, and a full request needs a full stamp.
    """
    have: set[str] = set()
    for stamped, stamp_sum in read_stamps(venv):
        if stamp_sum == checksum:
            have |= stamped
    return FULL in have or (FULL not in extras and extras <= have)


def record(venv: Path, extras: frozenset[str], checksum: str) -> Path:
    """Write the stamp for ``extras`` at ``checksum`` and drop stamps of other checksums."""
    for path in venv.glob(PREFIX + "*"):
        if not path.name.endswith("-" + checksum):
            path.unlink(missing_ok=True)
    stamp = venv / stamp_name(extras, checksum)
    stamp.touch()
    return stamp


def main(argv: list[str]) -> int:
    """The command line: ``check`` or ``record`` VENV EXTRAS CHECKSUM."""
    if len(argv) != 4 or argv[0] not in ("check", "record"):
        print("usage: stamps.py check|record VENV EXTRAS CHECKSUM", file=sys.stderr)
        return 2
    command, venv, extras, checksum = argv
    if command == "check":
        return 0 if is_installed(Path(venv), parse_extras(extras), checksum) else 1
    record(Path(venv), parse_extras(extras), checksum)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
