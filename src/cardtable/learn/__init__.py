"""Learning to play inside cardtable: guided lessons, hints from the search, and reviews of
finished games.

The package sits among the services: it reads seats through the contract
(:class:`cardtable.seat.Seat`), asks the agents for numbers and the text package for words, and
the front ends (browser, terminal) show what it returns.
"""
