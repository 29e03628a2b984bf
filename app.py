"""Transformer Explorer: type a sentence, watch it go through a from-scratch Transformer.

The frame: page config, the sidebar (language, sentence, model, device; all in the URL query) and
st.navigation over the stage pages in pages/. Run with `streamlit run app.py`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported anywhere
ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
import torch  # noqa: E402

from pages._shared import FRAME, render_sidebar, sync_shared_indices, tr  # noqa: E402

# One intra-op thread per forward pass by default: sessions already run in parallel threads, and on a
# busy CPU torch's spinning worker threads made paper-base's greedy decoding 20x slower here (33 s
# instead of 1.6 s). Override with TRANSFORMER_EXPLORER_TORCH_THREADS.
torch.set_num_threads(max(1, int(os.environ.get("TRANSFORMER_EXPLORER_TORCH_THREADS", "1"))))

st.set_page_config(page_title="Transformer Explorer", page_icon=":material/account_tree:", layout="wide")

PAGES = [
    ("pages/overview.py", "nav.overview", ":material/home:", None),
    ("pages/tokens.py", "nav.tokens", ":material/text_fields:", "tokens"),
    ("pages/embeddings.py", "nav.embeddings", ":material/waves:", "embeddings"),
    ("pages/encoder.py", "nav.encoder", ":material/stacks:", "encoder"),
    ("pages/decoder.py", "nav.decoder", ":material/output:", "decoder"),
    ("pages/heads.py", "nav.heads", ":material/grid_view:", "heads"),
]

render_sidebar()
sync_shared_indices()
pages = [
    st.Page(path, title=tr(title), icon=icon, url_path=url, default=url is None)
    for path, title, icon, url in PAGES
]
navigation = st.navigation(pages, position="top")
FRAME.active = True  # tells ensure_frame() this page runs inside the frame
try:
    navigation.run()
finally:
    FRAME.active = False
