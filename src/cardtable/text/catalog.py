"""The message catalogs, as the text package reads them: ``say(key, **params)``, ``language``,
``load``, and the choice of a language (``supported``, ``negotiate``, ``from_env``,
``set_default``); see :mod:`cardtable.catalog`, where they live, in the foundation, so that the
rules' refusals are read from the same catalogs. The PO files are this package's:
``locale/<lang>/LC_MESSAGES/*.po``."""

from __future__ import annotations

from ..catalog import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    Catalog,
    catalog,
    from_env,
    has,
    language,
    load,
    negotiate,
    say,
    set_default,
    supported,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "Catalog",
    "catalog",
    "from_env",
    "has",
    "language",
    "load",
    "negotiate",
    "say",
    "set_default",
    "supported",
]
