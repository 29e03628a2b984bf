"""Transformer Explorer's presentation layer: pure figure builders, head statistics, i18n strings.

Nothing in this package imports streamlit (pages do) or runs the model: builders take numpy
arrays / trace mappings and token strings, and return plotly Figures or pandas DataFrames.
"""
