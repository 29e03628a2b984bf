"""Moved to transformer_core.grammar.renderings (issue 49); the name stays while docs/models.md gives it."""

from transformer_core.grammar.renderings import main

if __name__ == "__main__":
    raise SystemExit(main())
