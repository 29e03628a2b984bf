"""Joining from a phone: the join URL (the server's network address instead of localhost) and its QR code."""

from __future__ import annotations

import io
from urllib.parse import urlencode, urlsplit, urlunsplit

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "[::1]"}


def join_url(page_url: str | None, params: dict[str, str], page: str = "lesson",
             lan_address: str | None = None) -> tuple[str, bool]:
    """The URL a phone opens to join: the app's address as the browser sees it (`page_url`, e.g.
    st.context.url), on the lesson page, with `params` (sentence, model, language, step).

    A local address (localhost) is useless on a phone: it is replaced by `lan_address` (the server's
    address in the local network) when given. Returns (url, whether the host was replaced)."""
    parts = urlsplit(page_url or "http://localhost:8501/")
    scheme = parts.scheme or "http"
    netloc = parts.netloc or "localhost:8501"
    host = parts.hostname or "localhost"
    replaced = False
    if host in LOCAL_HOSTS and lan_address:
        port = f":{parts.port}" if parts.port else ""
        netloc, replaced = f"{lan_address}{port}", True
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    if segments and segments[-1] == page:
        segments = segments[:-1]
    base = "/" + "/".join([*segments, page])
    query = urlencode({k: v for k, v in params.items() if v is not None and v != ""})
    return urlunsplit((scheme, netloc, base, query, "")), replaced


def qr_code(url: str):
    """The QR code of `url` (segno.QRCode; error correction M, never a micro code)."""
    import segno

    return segno.make(url, error="m", micro=False)


def qr_png(url: str, scale: int = 8) -> bytes:
    """`url`'s QR code as PNG bytes (dark on white, a 4-module quiet zone)."""
    buffer = io.BytesIO()
    qr_code(url).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()
