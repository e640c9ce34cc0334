"""Tests of the event store (src/cardtable/store): writes, reads and schema migrations, on SQLite
and on a throwaway PostgreSQL server."""
