"""Server abuse: the latency of ordinary tables while the server is abused.

The script (``benchmarks/server_abuse.py``, or ``python -m benchmarks.serverabuse``)

1. starts ``python -m cardtable serve --ai-delay 0.3`` in a subprocess with its own temporary
   folder and a fresh SQLite store (``--db URL`` for another store, e.g. PostgreSQL;
   ``--url URL`` to abuse a server already running, with ``--server-pid`` for its memory and
   CPU). The server keeps its own default rate limits and quotas (``--server-args`` adds
   options to its command line);
2. plays **ordinary tables** from 127.0.0.1: ``--tables`` (8) kaboo rooms of two people, each
   person on its own WebSocket, moving after a think time (``--think``, 0.3–0.8 s) whenever its
   seat is among the view's actors with legal actions, rematching when a game is over; and a
   ping client (one ping every ``--ping-interval`` s). See :mod:`.tables` for what is measured:
   **act→view** latency (``act`` sent → the ``state`` answering it, and → the other seat's
   ``state`` of the new version) and ping round trips;
3. measures a **baseline** of ``--seconds`` (15), then runs each **abuse scenario** in turn
   (``--scenarios``) for as long, while the ordinary tables keep playing. An abuser is a
   process of its own that comes from another loopback address (127.0.0.2, 127.0.0.3, …: Linux
   routes all of 127.0.0.0/8 to the loopback interface, so a client socket bound to one of
   them first reaches the server from that address), so per-address limits throttle the
   abuser, not the ordinary tables:

   - ``room_flood``: ``--room-clients`` keep-alive HTTP clients create rooms as fast as the
     server answers;
   - ``message_flood``: ``--flood-sockets`` WebSockets send pings and bogus acts (a bad token
     on a busy room, an unknown room) as fast as they can, and reconnect when closed;
   - ``connection_flood``: WebSocket handshakes, ``--connect-parallel`` at a time, up to
     ``--flood-conns``, all held open;
   - ``slow_clients``: ``--slowloris`` sockets that send half a request head and a header line
     every ``--loris-interval`` s, and ``--stalled-ws`` WebSockets with a 4 KiB receive buffer
     that join a busy room (an ordinary table's, as spectators) and ask for its state every
     ``--stall-interval`` s without ever reading (so their buffers, then the server's, fill);
     after the window they go on, unmeasured, to see when the server closes them;
   - ``big_bodies``: ``--big-parallel`` clients POST ``--body-mib`` (200) MiB bodies, by turns
     with a ``Content-Length`` and chunked, noting how much the server took before it answered;
     and ``--nested-sockets`` WebSockets sending frames nested 1,000 deep (within the size
     limit) and 1 MiB frames nested deeper;
   - ``replays``: ``--replay-clients`` (20) clients fetch the whole replay of a finished game of
     about 6,000 moves again and again, page by page when the answer is paged (``next``);
   - ``ping_flood``: ``--pf-sockets`` (256) WebSockets from ``--pf-addresses`` (8) addresses
     (127.0.0.62 …) each send a ping every ``--pf-interval`` s (0.05: the rate one connection
     is allowed) — only the limits per address and the server's shared message budget stop
     them;
   - ``spectators``: ``--sp-sockets`` (384) spectator connections from ``--sp-addresses`` (12)
     addresses (127.0.0.82 …) join the ordinary tables' rooms (by turns) and read every state;
   - ``handshake_flood``: from one address, ``--hs-parallel`` (64) clients make cross-origin
     WebSocket handshakes as fast as they are answered (each refusal is counted and held);
   - ``big_heads``: from one address, ``--bh-parallel`` (16) clients send 40,000-byte request
     heads in one write (``431``, however they arrive);
   - ``ai_rooms``: rooms of ``master`` (``--ai-master``), ``expert`` (``--ai-expert``) and
     ``casual`` (``--ai-casual``) AI seats playing, each created and watched by one spectator
     socket from one of ``--ai-addresses`` (40) addresses (127.0.0.122 …, so the per-address
     room quota does not cap them); a room whose game ends is replaced during the window, and
     after it the rooms are watched until their games end.

   Before each scenario the script waits ``--settle`` s; after it, it measures how long the
   server takes to **recover** (three ``GET /api/levels`` in a row under 50 ms, from an address
   of their own);
4. prints one row per phase — act→view p50/p99/max, ping p99, the ordinary tables' errors, the
   abuser's outcome (what it got: rooms, 429s, ``rate_limited``, closes…), the server's RSS
   (/proc) — then the goal (p99 < 50 ms under every abuse), then details per phase (CPU of
   the server, its search workers, the clients and the rest of the machine, descriptors, the
   clients' event-loop lag, recovery). ``--json FILE`` saves every figure.

``--startup`` measures instead how long the server takes to answer after launch, on an empty
store and on one holding ``--startup-rooms`` (10,000) abandoned rooms written through the
store API (see :mod:`.startup`).

**The long game for ``replays``** is played in this process (the engine and the level's agents,
seeded as the server seeds them: kaboo, four ``casual`` seats, a match to 1,000 points gives
about 6,300 moves in ~15 s) and written to the store through :class:`cardtable.store.Store`
before the server starts (faster than a throwaway server playing it move by move with a commit
each). ``--replay-room ROOM/N`` uses a finished game that exists instead.

**Fairness on one machine.** The ordinary tables, the abusers and the server share the CPUs. An
abuser on another machine would not take the server's CPU, so abusers run at ``nice +10``
(``--abuser-nice``): they get what the server and the ordinary tables leave. The report gives
the CPU of every party and what *other* processes used during each window, and warns when that
was more than a quarter of a core (the figures are then inflated).

**Robustness.** Every child process dies with the script (``PR_SET_PDEATHSIG``) and is stopped on
Ctrl+C or an error; the whole run has a time limit (``--time-limit``, estimated by default); a
scenario is cut short when the server's RSS passes ``--max-rss-mb`` or the server exits.

The code, each module importing only those above it:

- ``common`` — the server process, source addresses, a small HTTP client, raw WebSockets, /proc;
- ``prepare`` — stores written through the store API (the long game, the abandoned rooms);
- ``tables`` — the ordinary tables' process;
- ``base``, ``flood``, ``slow``, ``spread``, ``heavy``, ``scenarios`` — the abusers
  (``spread``: those from many addresses);
- ``run`` — the whole run and its phases; ``startup`` — ``--startup``;
- ``report`` — the table, the details, the goal, the JSON; ``cli`` — the command line.
"""
