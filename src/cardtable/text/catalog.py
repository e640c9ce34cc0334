"""The message catalogs, as the text package reads them: ``say(key, **params)``, ``language``,
``load`` (see :mod:`cardtable.catalog`, where they live, in the foundation, so that the rules'
refusals are read from the same catalogs). The PO files are this package's: ``locale/<lang>/
LC_MESSAGES/cardtable.po``."""

from __future__ import annotations

from ..catalog import DEFAULT_LANGUAGE, DOMAIN, Catalog, catalog, has, language, load, say

__all__ = ["DEFAULT_LANGUAGE", "DOMAIN", "Catalog", "catalog", "has", "language", "load", "say"]
