"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters (optional extras).

``cardtable.encoding`` (integer actions and observation vectors) needs only NumPy;
``cardtable.interop.pettingzoo`` needs the ``[pettingzoo]`` extra and
``cardtable.interop.openspiel`` the ``[openspiel]`` extra. Every adapter reads the engine
through ``view``, ``legal_actions`` and ``play`` (OpenSpiel also through ``determinize`` and the
game's draw source, ``Game.draws``, for chance nodes).
"""
