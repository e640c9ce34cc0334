"""Measuring: nearest-rank percentiles, and the CPU, memory and file systems of this machine.

Process figures come from psutil when installed, else from /proc; where neither is there the
functions give ``None`` rather than guess.
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import resource
import sys
import time
from pathlib import Path

__all__ = [
    "children_cpu_seconds",
    "fs_type",
    "machine_busy",
    "percentile",
    "proc_cpu_seconds",
    "proc_rss_mb",
    "progress",
    "raise_fd_limit",
    "versions",
]


def percentile(sorted_values: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list (``nan`` when empty)."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(pct / 100.0 * len(sorted_values)))
    return sorted_values[rank - 1]


def raise_fd_limit(wanted: int) -> int:
    """Raise this process's open-file soft limit towards ``wanted`` (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return int(soft)


def proc_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds used so far by process ``pid`` (all its threads)."""
    try:
        import psutil  # type: ignore[import-untyped]

        times = psutil.Process(pid).cpu_times()
        return float(times.user + times.system)
    except ImportError:
        pass
    except Exception:
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds used so far by the live children of ``pid`` (the server's
    search workers), from /proc; ``None`` where there is no /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    total = 0.0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[1] == str(pid):
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def machine_busy() -> tuple[float, float] | None:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    try:
        parts = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return None
    values = [float(v) for v in parts]
    idle = values[3] + (values[4] if len(values) > 4 else 0.0)
    return sum(values) - idle, sum(values)


def fs_type(path: Path) -> str:
    """File-system type holding ``path`` (from /proc/mounts), e.g. ``ext4`` or ``tmpfs``."""
    best, kind = "", "?"
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return kind
    resolved = str(path.resolve())
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3:
            mount = parts[1]
            inside = resolved == mount or resolved.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) > len(best):
                best, kind = mount, parts[2]
    return kind


def progress(text: str) -> None:
    """A progress line on stderr (the results go to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def versions() -> str:
    """Versions of the pieces that matter."""
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {platform.python_version()}"]
    for name in ("uvicorn", "websockets", "fastapi", "uvloop", "sqlalchemy", "aiosqlite"):
        with contextlib.suppress(PackageNotFoundError):
            parts.append(f"{name} {version(name)}")
    return ", ".join(parts)
