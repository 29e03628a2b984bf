"""Moved to transformer_core.grammar.level1_audit (issue 49); the name stays while docs/models.md gives it."""

from transformer_core.grammar.level1_audit import main

if __name__ == "__main__":
    raise SystemExit(main())
