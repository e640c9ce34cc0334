"""``python -m cardtable.views > docs/view.schema.json``: print the views' JSON Schema."""

from .schema import main

main()
