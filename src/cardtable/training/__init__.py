"""Offline training of what the AI players load at play time.

Nothing here runs during a game: :mod:`.belief` fits the belief models that
``agents/beliefs/<variant>.json`` ship (``python -m cardtable.training.belief``). This package
may import :mod:`cardtable.agents`; the agents never import it.
"""
