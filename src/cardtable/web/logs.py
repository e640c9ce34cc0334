"""The server's logs as JSON lines (``cardtable serve --log-format json``; docs/protocol.md,
"Operations").

:class:`JsonFormatter` writes each record as one JSON object: ``time``, ``level``, ``logger``,
``message``, the ``room`` and ``seat`` a log call gives (``extra={"room": ..., "seat": ...}``),
the fields of an access line (``client``, ``method``, ``path``, ``status``) and ``exc`` for an
exception's traceback. :func:`json_log_config` is the ``logging.config.dictConfig`` that sends
uvicorn's logs, the server's own and every other library's through it. In the ``text`` format
(the default) uvicorn's own configuration is used.

Nothing here reads a card or a token: the log calls of the server never pass one, and the
access line's path holds room ids at most (a seat's token travels in a header or a WebSocket
message, never in an address).
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

__all__ = ["LOG_FORMATS", "JsonFormatter", "json_log_config"]

LOG_FORMATS = ("text", "json")
"""The formats ``--log-format`` takes."""

_CONTEXT = ("room", "seat")
"""Fields a log call may give with ``extra`` and that a JSON line carries."""

_ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")
"""The arguments of an access line of uvicorn (``uvicorn.access``), in order."""


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON (see the module's description for its fields)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON object on one line."""
        out: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in _CONTEXT:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            out.update(zip(_ACCESS_FIELDS, args, strict=True))
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def json_log_config(level: str) -> dict[str, Any]:
    """The ``dictConfig`` of a server whose logs are JSON lines at ``level`` (``info``,
    ``warning`` …): uvicorn's (its errors and its access lines), the server's own
    (``cardtable``) and every other logger's (at ``warning`` and above), one record a line on
    standard error."""
    upper = level.upper()
    main = {"handlers": ["main"], "level": upper, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "main": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": dict(main),
            "uvicorn.error": {"level": upper},
            "uvicorn.access": dict(main),
            "cardtable": dict(main),
        },
        "root": {"handlers": ["main"], "level": "WARNING"},
    }
