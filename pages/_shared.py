"""Re-exports for pages written before the app layer moved to explorer/ (pages/lesson.py): new code imports
from explorer.frame, explorer.state, explorer.services and explorer.widgets directly."""

from explorer.frame import FRAME, ensure_frame
from explorer.services import (
    DeviceTrace,
    View,
    current_view,
    device_options,
    get_decoded_trace,
    get_model,
    get_tokenizer,
    get_trace,
    model_examples,
    model_task,
    trace_cache,
)
from explorer.state import (
    DEFAULT_TEXT,
    MAX_TEXT_CHARS,
    SHARED_INDICES,
    Settings,
    labels_for,
    lang,
    set_shared_index,
    settings,
    shared_index,
    sync_shared_indices,
    tr,
    write_shared_to_url,
)
from explorer.widgets import chart, download_matrix, encoder_only_notice, index_picker, page_header, render_sidebar

__all__ = [
    "DEFAULT_TEXT", "FRAME", "MAX_TEXT_CHARS", "SHARED_INDICES", "DeviceTrace", "Settings", "View", "chart",
    "current_view", "device_options", "download_matrix", "encoder_only_notice", "ensure_frame", "get_decoded_trace",
    "get_model", "get_tokenizer", "get_trace", "index_picker", "labels_for", "lang", "model_examples", "model_task",
    "page_header", "render_sidebar", "set_shared_index", "settings", "shared_index", "sync_shared_indices",
    "tr", "trace_cache", "write_shared_to_url",
]
