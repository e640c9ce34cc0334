"""The store's migrations, one file per schema change, oldest first (see
``docs/architecture.md``, "The store's schema and migrations")."""
