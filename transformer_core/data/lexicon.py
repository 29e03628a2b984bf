"""Moved to transformer_core.grammar.lexicon (issue 49); this name stays while explorer/vocab_service.py imports it."""

from transformer_core.grammar.lexicon import CORE, FULL

__all__ = ["CORE", "FULL"]
