"""Transformer Explorer's app layer beside pages/: figures, i18n, services (never imported by transformer_core)."""
