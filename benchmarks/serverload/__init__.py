"""Server load: N concurrent tables of bot clients over real WebSockets against one server.

For every N in ``--tables`` the script

1. starts ``python -m cardtable serve`` as a subprocess with a fresh SQLite store in a temporary
   folder (``--ai-delay 0``, short real-time windows), or uses ``--db URL`` as its store, or
   targets an already running server with ``--url`` (then nothing is started or restarted);
2. creates N rooms over HTTP (``POST /api/rooms``, every seat a person, ``{"target": null}`` so a
   game is one short round) and takes the other seats (``POST /api/rooms/{room}/join``), a
   bounded number of requests at a time;
3. starts ``--client-procs`` client processes (asyncio + ``websockets``, uvloop when installed)
   that open one WebSocket per seat and ``join`` — the *connect* phase, not measured;
4. lets the bots play: ``--warmup`` seconds unmeasured, then ``--duration`` seconds measured, then
   no new message is sent and the clients wait (up to ``--drain`` s) for the replies still due;
5. checks the store: every action a client saw acknowledged must be stored under the same game,
   number, seat and action (*lost* must be 0); sent actions that were never acknowledged are
   reported with how many of them the store holds anyway.

**Bots.** A seat acts when a ``state`` arrives whose ``view.legal`` is non-empty and whose
``view.actors`` starts with that seat (so in a phase where several seats may act at once only
the first of them moves, and the others move on the states that follow: no ``stale`` by
design; ``--race`` lets every seat with legal actions move at once, to exercise ``stale``). It
waits a think time, then sends ``act`` with a uniformly random legal action (seeded with
``--seed``), the state's ``version`` and an ``id``. When a game is over each seat sends
``rematch`` once after a think time (the first offers the next game, the others accept it), so
every table keeps playing until the end of the run.

**Think time.** Uniform in ``--think LO-HI`` seconds (``--think 0``: none). The default,
0.5–1.5 s (mean 1 s), models brisk players and UI bots: people at a card table take one to
several seconds per move, so the default is a harsher load than people make. A 2-seat kaboo
table then makes about 0.8 actions/s plus a rematch every ~6 actions (random play ends a round
quickly): 1,000 tables offer ~800 actions/s and ~125 rematches/s. With ``--think 0`` every table
plays flat out and the figures show the server's saturation throughput (and queueing latency).

**Latency** is the time from sending ``act`` to receiving the ``state`` frame carrying its
``id``, for actions sent during the measured window, measured in the client process. The client
processes report their CPU use and event-loop lag so one can tell whether they, rather than the
server, were the bottleneck (the dev machine has 2 cores shared by the server and the clients).
Two client processes are the default: at 1,000 tables one process used ~0.3 core but its loop
lag reached p99 17–30 ms when the server's frames came in bursts; split in two, 3–6 ms.

**Errors** are counted by code: every ``error`` frame, plus ``no_reply`` (no answer within the
drain time) and ``disconnect`` (a connection closed by the server). ``stale`` is shown apart: it
is the protocol's answer to a message that crossed another move, not a server fault. It can only
happen with ``--race`` (two seats of a simultaneous phase act on the same version) or when a
real-time window closes (the server plays the default) while a bot is thinking — which gives
``stale`` or ``not_your_turn`` in cabo/gabo when latencies approach the window length. With the
default variant (kaboo has no simultaneous phase) and first-actor-only bots neither occurs.
Actions the server played itself when a window closed are reported as stored but not
acknowledged (after the run, open windows still close and are played by the server).

**AI tables.** ``--ai-tables N`` adds N rooms where every seat is an AI of ``--ai-level``
(default ``expert``), created before the people's tables and playing flat out (the server runs
with ``--ai-delay 0``) a long match (``--ai-options``, default a match to 1000 points, so they
do not end during the run). They are not measured: they are the load beside which the people's
tables are measured — with a search level, the server's search workers (``--ai-workers``, passed
to the server: default one per CPU; ``0`` searches in a thread of the server, as before the
worker pool). The report gives the AI moves stored during the measured window and the CPU the
workers used. Nobody is connected to the AI tables, so the server runs with an idle time of a
day: with its default (120 s) it pauses such a room two minutes after it was made. For example,
100 expert tables beside 20 people's tables:

    .venv/bin/python benchmarks/server_load.py --tables 20 --duration 20 --ai-tables 100

**The machine.** The server's CPU time comes from /proc (or psutil), the clients' from the client
processes, the whole machine's from /proc/stat, the search workers' from their /proc entries;
the ``other`` column is what the rest of the machine used meanwhile (in cores). Figures taken
while other processes were busy are inflated and the script says so. The SQLite store lives in
``--tmpdir`` (default: the system temp folder; its file-system type is printed, as
``synchronous=FULL`` makes every commit wait for the disk).

**Stores.** Without ``--db`` every N gets a new server with a fresh SQLite file, read back
directly with ``sqlite3`` for the check. With ``--db URL`` the server is restarted per N on that
store, read back with SQLAlchemy (give an empty database: at start the server resumes every
unfinished room, and every table of a previous N is left unfinished). With ``--url`` nothing is
started and the check goes through the HTTP API (``--db`` then only names where to read).

**Through the balancer.** ``--processes 1,2`` runs the same load through HAProxy instead: for
each process count P a cluster of P ``cardtable serve --redis`` processes on one PostgreSQL and
one Redis (``tests/cluster.py``; each process with the run's windows, an idle time of a day and
``--ai-workers`` when given), the counts of ``--tables`` played in ascending order through the
balancer's address until one misses the bar (p99 >= 50 ms, an error or a lost action), then
the cluster stopped (module ``balanced``). Rooms, seats and WebSockets go round robin over the
processes, so about (P-1)/P of the connections reach their room's owner through another process
and Redis, as with a real balancer without stickiness. It prints, for each P, the largest count
held and, with 1 and 2 among the counts, the ratio 2 / 1 (the issue's goal: >= 1.6 on the 2-core
dev machine). The server CPU is then the sum of the app processes; PostgreSQL, Redis, HAProxy and
the load generator share the same cores, so on 2 cores the ratio is bounded by what they take.
Rooms of a smaller count stay (idle) in the store while the next plays. Without
``--processes`` nothing changes. For example:

    .venv/bin/python benchmarks/server_load.py --processes 1,2 --tables 100,200,400,800

Run (``--tables 100`` for a quick look):

    .venv/bin/python benchmarks/server_load.py [--tables 100,500,1000] [--duration 20]
        [--think 0.5-1.5] [--client-procs 2] [--variant kaboo] [--db URL | --url URL]
        [--ai-tables N [--ai-level expert] [--ai-workers N]] [--processes 1,2]

The goal (the issue): 1,000 tables with p99 < 50 ms on the 2-core dev machine, 0 errors,
0 lost actions. The figures are printed as measured and the goal is marked met or not met.

**The code.** ``benchmarks/server_load.py`` is the entry script (``python -m
benchmarks.serverload`` works too); this package holds the rest, each module importing only those
above it in this list:

- ``measure`` — nearest-rank percentiles, CPU, memory and file-system figures from /proc,
  versions, progress lines;
- ``server`` — the server under test (``python -m cardtable serve``) and the rooms made over
  HTTP;
- ``clients`` — the client processes: one bot per seat on its own WebSocket;
- ``store`` — reading the store back and checking it against what the clients saw;
- ``run`` — one N: start the server, make the rooms, run the clients, measure, check;
- ``report`` — the results table, the lines under it and the goal;
- ``balanced`` — ``--processes``: one cluster per process count, the counts held;
- ``cli`` — the options and the whole run (``main``).
"""
