"""The game in words, for everything that shows it as text: the terminal's line mode and its
full-screen table, and the rules.

- :mod:`~cardtable.text.render`: the pieces every text table is made of (a card, a pile, a
  seat's name, a menu of the words that continue a move, a result table) and :class:`Front`,
  what one kind of game supplies;
- :mod:`~cardtable.text.catalog`: the message catalogs (gettext PO files under ``locale/``, one
  per language) every sentence is read from: ``say(key, **params)`` (read by
  :mod:`cardtable.catalog`, in the foundation, so that the rules' refusals are its messages too);
- :mod:`~cardtable.text.phrase`: every event of both games in words from the reader's side,
  once (``phrase(event, reader, game)``), why a move was refused (``refusal(exc, reader)``),
  and the lines of a round's results and the winner;
- :mod:`~cardtable.text.family` and :mod:`~cardtable.text.qute`: the two fronts — each game's
  table, its phrased events laid out, its round ends;
- :mod:`~cardtable.text.fronts`: which front draws which variant;
- :mod:`~cardtable.text.sights`: the cards a reader saw, for a table that shows them only for a
  while;
- :mod:`~cardtable.text.keys`: the key of each action word;
- :mod:`~cardtable.text.rules`: a variant's written rules with its option table.

It reads views and the variant registry and imports nothing above the rules.
"""
