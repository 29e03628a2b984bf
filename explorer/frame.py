"""The frame guard: every page runs inside app.py's frame (sidebar, st.navigation), never on its own.

Streamlit still has its legacy multipage mode for a folder named pages/: until some run of the
process has called st.navigation, a first visit straight to /encoder runs pages/encoder.py WITHOUT
app.py (and AppTest starts every run in that mode). No public Streamlit API switches that mode off
(streamlit/runtime/pages_manager.py), so this module does it, in one place.
"""

from __future__ import annotations

import threading

import streamlit as st

# Set by app.py while st.navigation runs the page, in the script's own thread. The process-wide
# pages/ flag alone is not enough: 16 sessions opening at once on a fresh server saw it flipped by
# another session and ran their page without the frame ("no models").
FRAME = threading.local()


def ensure_frame() -> None:
    """Each page calls this first. In the legacy mode (or outside app.py's frame) it switches the
    process to st.navigation and reruns, so app.py runs and then the same page (legacy and st.Page
    hash the same url path)."""
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory or not getattr(FRAME, "active", False):
        PagesManager.uses_pages_directory = False
        st.rerun()
