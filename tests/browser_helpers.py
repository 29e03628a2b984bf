"""Helpers for driving the app in headless Chromium: a Streamlit server subprocess, the browser, and
"fully drawn" waits (script idle AND every plotly heatmap drawn). Used by tests/test_browser.py and
benchmarks/browser_timing.py."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

from tests.servers import free_port

ROOT = Path(__file__).resolve().parent.parent
# Where browser tests write their screenshots: an ignored build folder, so `make test` leaves the tree clean;
# `make screenshots` points it at a staging folder and copies the README's pictures into docs/screenshots.
SCREENSHOTS = Path(os.environ.get("TRANSFORMER_EXPLORER_SCREENSHOTS") or ROOT / "build" / "screenshots")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# How often a wait re-reads the page, in ms. Playwright's wait_for_function re-evaluates its predicate on every
# animation frame by default (60 times a second, in the page and across the driver) for as long as a test waits;
# every 100 ms is prompt enough, and the browsers, the servers and the other worker share two cores.
POLL_MS = 100
POLL_S = POLL_MS / 1000
SCRIPT_STATE = "[data-test-script-state]"  # Streamlit 1.67 marks the app root with the run state
EXCEPTION = "[data-testid=stException]"
SIDEBAR_TEXT_BOX = "[data-testid=stSidebar] [data-testid=stTextInput] input"  # the sentence box

# Streamlit 1.67 keeps an element that a rerun replaced with a different one (a plotly chart's identity
# includes its figure) mounted but hidden (`data-retained="true"`, CSS display: none) until a stale-element
# cleanup reaches it. Seen on /encoder after a layer switch then a head switch (nested fragments): the old
# layer's heads grid and FFN chart stayed retained for good, so the DOM held 15 heatmaps where 10 are on
# screen (issue 22). The student never sees them; the counts below skip them.
_SHOWN = "(el => !el.closest('[data-retained=true]'))"

# JS: (script state, drawn heatmap images, heatmap traces plotly knows of, plotly plots, Streamlit chart slots),
# counting only elements on screen (not retained ones)
_PROBE = """() => {
  const shown = """ + _SHOWN + """;
  const state = document.querySelector('[data-test-script-state]');
  const plots = [...document.querySelectorAll('.js-plotly-plot')].filter(shown);
  const traces = plots.reduce((n, p) => n + (p._fullData || []).filter(t => t.type === 'heatmap').length, 0);
  return [state ? state.getAttribute('data-test-script-state') : null,
          [...document.querySelectorAll('.js-plotly-plot g.hm image')].filter(shown).length, traces, plots.length,
          [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(shown).length];
}"""


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


def require_chromium() -> None:
    """At a browser test module's import: skip it loudly without Chromium, or fail when CI=true."""
    import pytest

    if chromium_available():
        return
    message = ("!!! /usr/bin/chromium is missing: the browser tests are SKIPPED. "
               "Install it with `apt-get install -y chromium fonts-noto-cjk` !!!")
    print(message, file=sys.stderr)
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {message}", pytrace=False)
    pytest.skip(message, allow_module_level=True)


class Server(str):
    """The base URL of a running server (a plain `str`, so callers use it as the URL), plus
    `.url`, `.pid` (the `streamlit run` process, for memory measurements) and `.log` (the file its output goes to)."""

    pid: int
    log: str

    def __new__(cls, url: str, pid: int, log: str = "") -> Server:
        server = super().__new__(cls, url)
        server.pid = pid
        server.log = log
        return server

    @property
    def url(self) -> str:
        return str(self)


def _status_kib(pid: int, field: str) -> int:
    """A `/proc/<pid>/status` field in KiB (VmHWM: peak resident set, VmRSS: current); 0 if gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def process_tree(pid: int) -> list[int]:
    """`pid` and all its descendants (from /proc/<pid>/task/*/children)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                todo.extend(int(child) for child in (task / "children").read_text().split())
    return found


def peak_rss_bytes(pid: int) -> int:
    """Peak resident memory (VmHWM) of `pid` plus that of each of its live descendants, in bytes."""
    return 1024 * sum(_status_kib(p, "VmHWM") for p in process_tree(pid))


def rss_bytes(pid: int) -> int:
    """Current resident memory (VmRSS) of `pid` and its descendants, in bytes."""
    return 1024 * sum(_status_kib(p, "VmRSS") for p in process_tree(pid))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by `pid` and its live descendants (/proc/<pid>/stat)."""
    ticks = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of proc(5))
    return ticks / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def streamlit_server(port: int | None = None, env: dict[str, str] | None = None,
                     timeout: float = 60.0, keep_log: bool = False, cpus: set[int] | None = None) -> Iterator[Server]:
    """`streamlit run app.py` on a free port; yields the base URL (a `Server`: a str with `.url`, `.pid` and
    `.log`); stops the process (and only it) after, and removes its log file unless `keep_log`. `cpus`: the
    processors it may run on (a benchmark keeps the server apart from its browsers)."""
    port = port or free_port()
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(env or {})}
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
    # The server's output goes to a file, never to a pipe nobody reads: Streamlit logs a line per dropped
    # fragment tick and more, and once a pipe's 64 KiB filled up, the thread that logged next blocked for good
    # (a following phone, or the teacher, stopped mid-class with the machine idle).
    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)  # noqa: SIM115
    process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    if cpus:
        os.sched_setaffinity(process.pid, cpus)  # before Streamlit starts its threads: they inherit it
    log.close()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                output = Path(log.name).read_text(encoding="utf-8", errors="replace")
                raise RuntimeError(f"streamlit exited with {process.returncode}:\n{output[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer on {base} within {timeout:.0f} s")
            time.sleep(0.25)
        yield Server(base, process.pid, log.name)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)  # the group we started (start_new_session), nothing else
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        if not keep_log:
            Path(log.name).unlink(missing_ok=True)


def launch(playwright):
    """Debian's chromium, headless, no network side traffic."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def page_url(base: str, path: str = "", **params: str | int) -> str:
    query = urlencode({k: str(v) for k, v in params.items() if v is not None})
    return f"{base}/{path}" + (f"?{query}" if query else "")


def sidebar_text(page, timeout: float = 30_000) -> str:
    """The sidebar's sentence, once its box holds one. The box is drawn after the main area (the script can be
    idle and the chips or charts drawn first) and mounts empty before the URL's value fills it, so one read
    right after a page is drawn can see no box or ''. Seen in CI: ('rtl on tokens', '')."""
    from playwright.sync_api import expect

    box = page.locator(SIDEBAR_TEXT_BOX).first
    expect(box).to_have_value(re.compile(".+", re.DOTALL), timeout=timeout)
    return box.input_value()


def probe(page) -> tuple[str | None, int, int, int, int]:
    return tuple(page.evaluate(_PROBE))


def wait_drawn(page, expected_heatmaps: int, timeout: float = 90.0, settle: float = 0.3,
               since: float | None = None) -> float:
    """Wait until the script is idle, every chart slot holds a plotly plot, and exactly
    `expected_heatmaps` heatmap images are drawn (= the heatmap traces plotly holds), stable for
    `settle` seconds. Returns the seconds from `since` (default: now) to the first moment it held."""
    start = time.perf_counter() if since is None else since
    deadline = time.perf_counter() + timeout
    first_ok: float | None = None
    last = None
    while time.perf_counter() < deadline:
        state, images, traces, plots, slots = probe(page)
        ok = (state == "notRunning" and plots == slots and images == traces == expected_heatmaps)
        if ok:
            if first_ok is None:
                first_ok = time.perf_counter()
            if time.perf_counter() - first_ok >= settle:
                return first_ok - start
        else:
            first_ok = None
        last = (state, images, traces, plots, slots)
        time.sleep(POLL_S)
    raise TimeoutError(f"page not drawn within {timeout:.0f} s: expected {expected_heatmaps} heatmaps; "
                       f"last (state, images, traces, plots, slots) = {last}")


def expected_heatmaps(page_name: str, n_heads: int, has_decoder: bool, has_token_type: bool = False) -> int:
    """Heatmap images each page draws by default (the page layout's contract with this test)."""
    return {
        "overview": 0,
        "tokens": 0,
        "embeddings": (4 if has_token_type else 3) + 1 + 1,  # E·√d | PE | (type) | X, PE map, PE·PEᵀ
        "encoder": n_heads + 2 + 3 + 1,  # all heads, scores | weights, Q | K | V, FFN hidden
        # masking steps, self + cross grids, step sources, KV cache (K | V)
        "decoder": (4 + 2 * n_heads + 1 + 2) if has_decoder else 0,
        "heads": 3 + 1 + (3 if has_decoder else 1),  # A | B | A−B, similarity, one overview image per kind
    }[page_name]


# ------------------------------------------------------------------------------------------------
# Timing without disturbing the page: an init script notes (with performance.now(), checked once per
# animation frame after DOM mutations) when the page last became "drawn"; Python reads it rarely.

TIMING_INIT_SCRIPT = """(() => {
  const shown = """ + _SHOWN + """;
  window.__drawn = null; window.__clickAt = null; let scheduled = false;
  const check = () => {
    scheduled = false;
    const root = document.querySelector('[data-test-script-state]');
    const state = root ? root.getAttribute('data-test-script-state') : null;
    const plots = [...document.querySelectorAll('.js-plotly-plot')].filter(shown);
    const traces = plots.reduce((n, p) => n + (p._fullData || []).filter(t => t.type === 'heatmap').length, 0);
    const images = [...document.querySelectorAll('.js-plotly-plot g.hm image')].filter(shown).length;
    const slots = [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(shown).length;
    const titles = [...document.querySelectorAll('.js-plotly-plot .gtitle')].filter(shown).map(t => t.textContent)
      .join('|');
    const ok = state === 'notRunning' && plots.length === slots && images === traces;
    const d = window.__drawn;
    if (ok && (!d || d.stale || d.images !== images || d.titles !== titles)) {
      window.__drawn = {t: performance.now(), images, titles, stale: false};
    } else if (!ok && d) { d.stale = true; }
  };
  const schedule = () => { if (!scheduled) { scheduled = true; requestAnimationFrame(check); } };
  new MutationObserver(schedule).observe(document, {subtree: true, childList: true, attributes: true,
                                                    characterData: true});
  document.addEventListener('pointerdown', () => { window.__clickAt = performance.now(); }, true);
})();"""


def drawn_at(page, expected_heatmaps: int, title_pattern: str | None = None, timeout: float = 90.0,
             settle: float = 0.4) -> float:
    """performance.now() (ms) at which the page became drawn with `expected_heatmaps` images (and a chart
    title matching `title_pattern`), once that state has held for `settle` seconds. Needs TIMING_INIT_SCRIPT."""
    import re

    deadline = time.perf_counter() + timeout
    seen, since = None, None
    while time.perf_counter() < deadline:
        drawn = page.evaluate("() => window.__drawn")
        ok = (drawn and not drawn["stale"] and drawn["images"] == expected_heatmaps
              and (title_pattern is None or re.search(title_pattern, drawn["titles"])))
        if ok and seen == drawn["t"]:
            if time.perf_counter() - since >= settle:
                return float(drawn["t"])
        elif ok:
            seen, since = drawn["t"], time.perf_counter()
        else:
            seen = None
        time.sleep(0.1)
    raise TimeoutError(f"not drawn with {expected_heatmaps} heatmaps within {timeout:.0f} s "
                       f"(last: {page.evaluate('() => window.__drawn')})")


def click_nav_link(page, url_path: str, timeout: int = 30_000) -> None:
    """Go to a page with the top navigation bar, as a student would: pages sit in section menus
    (st.navigation with sections), so open the section whose menu holds the link, then click it."""
    direct = page.locator(f"[data-testid=stTopNavLink][href$='/{url_path}']")
    if direct.count():
        direct.first.click(timeout=timeout)
        return
    link = page.locator(f"[data-testid=stTopNavDropdownLink][href$='/{url_path}']")
    sections = page.locator("[data-testid=stTopNavSection]")
    for i in range(sections.count()):
        sections.nth(i).click(timeout=timeout)
        if link.count() and link.first.is_visible():
            link.first.click(timeout=timeout)
            return
        page.keyboard.press("Escape")
    raise AssertionError(f"no navigation link to /{url_path} in the top bar")


def shows_step(page, number: int, timeout: float = 180_000) -> None:
    """Wait until the main area shows lesson step `number`'s own heading in the Korean UI ("7단계 / 23 · ..."; a
    check for the number anywhere would match an old "2단계 / 23" while step 3 draws)."""
    page.wait_for_function("""n => [...document.querySelectorAll('[data-testid=stMain] h3')]
        .some(h => h.innerText.startsWith(n + '단계'))""", arg=number, timeout=timeout, polling=POLL_MS)


# Every plotly chart drawn and nothing stale or still a skeleton: a step's layout is final once this holds.
CHARTS_RENDERED = """() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]
    .every(chart => chart.querySelector('.main-svg'))
    && !document.querySelector('[data-stale=true], [data-testid=stSkeleton]')"""


def settled_main_height(tab, tries: int = 30) -> int:
    """The main area's scrollHeight once every chart is drawn, nothing is stale and three reads 0.4 s apart
    agree (plotly and KaTeX lay out after the script is idle; a rerun may hold the old step's elements)."""
    tab.wait_for_function(CHARTS_RENDERED, timeout=60_000, polling=POLL_MS)
    read = "() => document.querySelector('[data-testid=stMain]').scrollHeight"
    reads = [tab.evaluate(read)]
    for _ in range(tries):
        tab.wait_for_timeout(400)
        reads.append(tab.evaluate(read))
        if len(reads) >= 3 and len(set(reads[-3:])) == 1:
            break
    return reads[-1]
