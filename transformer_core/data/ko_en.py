"""Moved to transformer_core.grammar.base (issue 49); this name stays while training/recipes.py imports it."""

from transformer_core.grammar.base import REGISTERS

__all__ = ["REGISTERS"]
