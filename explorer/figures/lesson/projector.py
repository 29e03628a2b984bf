"""Projector mode: figures restyled for a room (large text, cividis, one screen high) and the page CSS."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.colors import get_colorscale

PROJECTOR_SCALE = get_colorscale("Cividis")  # colour-blind safe (blue -> yellow), monotone in lightness
PROJECTOR_FONT_PX = 20  # figure text; tick labels stay readable from the back of a room
PROJECTOR_BODY_PX = 26  # page body text in projector mode (>= 24 px at 1920x1080)
PROJECTOR_MAX_HEIGHT = 640  # one figure per screen next to the text at 1080 px
PROJECTOR_MIN_HEIGHT = 540
PROJECTOR_SCREEN_PX = 1080
# What the figure column holds beside the figure on a 1080 px screen (measured in Chromium, 26 px text):
# the navigation row above it, the shape line, each line of the equation, the keys caption and padding.
ABOVE_FIGURE_PX, SHAPE_LINE_PX, EQUATION_LINE_PX, BELOW_PX = 120, 60, 52, 110


def equation_lines(latex: str) -> int:
    """Lines of a (possibly multi-line, `\\\\`-separated) LaTeX equation."""
    return latex.count("\\\\") + 1 if latex else 0


def projector_height_budget(latex: str) -> int:
    """The tallest figure that leaves room for the step's shape line and equation below it on one
    1080 px screen."""
    below = SHAPE_LINE_PX + EQUATION_LINE_PX * equation_lines(latex) + BELOW_PX
    return PROJECTOR_SCREEN_PX - ABOVE_FIGURE_PX - below


def projector_figure(fig: go.Figure, max_height: int = PROJECTOR_MAX_HEIGHT) -> go.Figure:
    """A copy of `fig` for a projector: larger text and tick labels, the cividis colour scale on every
    heatmap, bars in two colours that differ in lightness, a height that fits one 1080 px screen (at most
    `max_height`: what the equation below it leaves, see projector_height_budget)."""
    max_height = max(360, min(max_height, PROJECTOR_MAX_HEIGHT))
    spec = fig.to_plotly_json()
    layout = dict(spec.get("layout", {}))
    layout["font"] = {**layout.get("font", {}), "size": PROJECTOR_FONT_PX}
    title = dict(layout.get("title", {}))
    title["font"] = {**title.get("font", {}), "size": PROJECTOR_FONT_PX + 6}
    layout["title"] = title
    token_ticks = isinstance(layout.get("meta"), dict) and layout["meta"].get("token_ticks")
    for key in list(layout):
        if key.startswith(("xaxis", "yaxis")):
            axis = dict(layout[key])
            if not token_ticks:  # a tile grid's token labels stay small: one per tile row and column
                axis["tickfont"] = {"size": PROJECTOR_FONT_PX}
            if isinstance(axis.get("title"), dict):
                axis["title"] = {**axis["title"], "font": {"size": PROJECTOR_FONT_PX}}
            layout[key] = axis
    layout["annotations"] = [{**a, "font": {**a.get("font", {}), "size": PROJECTOR_FONT_PX}}
                             for a in layout.get("annotations", [])]
    if "coloraxis" in layout:
        axis = dict(layout["coloraxis"])
        axis.pop("cmid", None)
        axis["colorscale"] = PROJECTOR_SCALE
        axis["colorbar"] = {**axis.get("colorbar", {}), "tickfont": {"size": PROJECTOR_FONT_PX - 2}}
        layout["coloraxis"] = axis
    layout["plot_bgcolor"] = "white"  # masked (−∞) cells: white gaps, unlike any cividis colour
    height = int(layout.get("height") or 0)
    keeps_aspect = any(isinstance(v, dict) and "scaleanchor" in v for v in layout.values())
    if not keeps_aspect:
        layout["height"] = min(max(height + 80, min(PROJECTOR_MIN_HEIGHT, max_height)), max_height)
    else:  # square tiles (the all-heads overview) keep their gaps; the tiles shrink to the height
        layout["height"] = min(height, max_height)
    layout["margin"] = {"l": 10, "r": 10, "t": 80, "b": 10}
    n_maps = sum(1 for trace in spec.get("data", []) if trace.get("type") == "heatmap")
    data = []
    for trace in spec.get("data", []):
        trace = dict(trace)
        if trace.get("type") == "heatmap":
            if "colorscale" in trace:
                trace["colorscale"] = PROJECTOR_SCALE
                trace.pop("zmid", None)
            trace["colorbar"] = {**trace.get("colorbar", {}), "tickfont": {"size": PROJECTOR_FONT_PX - 2}}
            if "texttemplate" in trace and n_maps > 2:  # numbers in many small panels would overlap
                trace.pop("texttemplate")
            elif "texttemplate" in trace:
                trace["textfont"] = {"size": PROJECTOR_FONT_PX - 4}
        elif trace.get("type") == "bar":
            colors = trace.get("marker", {}).get("color")
            if isinstance(colors, list | tuple):
                first = colors[0] if colors else None
                highlighted = [c != "#8ab4f8" for c in colors] if first is not None else []
                trace["marker"] = {**trace["marker"],
                                   "color": ["#00204c" if h else "#a9a9a9" for h in highlighted]}
            trace["textfont"] = {"size": PROJECTOR_FONT_PX}
        data.append(trace)
    return go.Figure({"data": data, "layout": layout}, _validate=False)


BASE_CSS = """<style>
[data-testid="stMain"] .katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 2px; }
[data-testid="stMain"] :is(h1, h2, h3, p, li) { word-break: keep-all; overflow-wrap: break-word; }
.st-key-class_resync, [data-testid="stElementContainer"]:has(.class-watchdog),
[data-testid="stElementContainer"]:has(.lesson-keys),
[data-testid="stLayoutWrapper"]:has(> [data-testid="stVerticalBlock"]
  > [data-testid="stElementContainer"] .class-poll-beat) { display: none !important; }
</style>"""  # a long equation scrolls inside its box on a phone instead of being cut off; Korean lines break between
# words, not inside one (a phone showed "1단계 / 23 · 글자에서 토큰으" / "로" and "수업: 논문을 한 걸" / "음씩"; a
# word longer than the line still breaks); the live class's poll watchdog (explorer/class_view.py) takes no room:
# the poll fragment's own block (the beat in it) included


# The projector's → / ← keys. One listener in the page's own window, added once and never removed: it acts only
# while a projector lesson shows its marker (.lesson-keys), never on a key typed into a field. It presses the
# first Next / Previous button that is on screen (not a copy Streamlit retains from an earlier run); while a
# run has none on screen it tries again for 10 s, so a press during a run is not lost. (streamlit-shortcuts, used
# before, kept its listener in a component iframe's window and clicked the first matching button in the DOM;
# a press was lost now and then: one step of 22 in a CI run, and one teacher step in the 30-phone benchmark.)
KEYS_JS = """<span class="lesson-keys" hidden></span><script>
(() => {
  if (window.__lessonKeys) return;
  window.__lessonKeys = true; window.__lessonKeyPresses = 0;
  const BUTTONS = {ArrowRight: 'lesson_next', ArrowLeft: 'lesson_prev'};
  const live = key => [...document.querySelectorAll(`.st-key-${key} button`)]
    .find(b => !b.closest('[data-retained=true]') && !b.disabled && b.getClientRects().length > 0);
  document.addEventListener('keydown', event => {
    const key = BUTTONS[event.key];
    if (!key || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    if (!document.querySelector('.lesson-keys')) return;
    if (event.target.closest && event.target.closest('input, textarea, select, [contenteditable=true]')) return;
    event.preventDefault();
    const until = Date.now() + 10000;
    const press = () => {
      const button = live(key);
      if (button) { window.__lessonKeyPresses += 1; button.click(); }
      else if (Date.now() < until) setTimeout(press, 100);
    };
    press();
  });
})();
</script>"""


def page_css(present: bool) -> str:
    """The lesson's <style>: equations scroll sideways on narrow screens; plus the projector's rules."""
    return BASE_CSS + (projector_css() if present else "")


def projector_css() -> str:
    """The projector's <style>: no sidebar, header or top navigation; large body text (>= 24 px);
    smaller again on a narrow (phone) screen. The live class's panel keeps its lines close: its 40 px class code
    (explorer/class_view.py) then takes no more height than the 26 px one did."""
    px = PROJECTOR_BODY_PX
    return f"""<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"] {{ display: none !important; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 1.2rem !important; padding-bottom: 0.5rem !important;
  max-width: 100% !important; }}
[data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label, [data-testid="stMain"] button,
[data-testid="stMain"] [data-testid="stCaptionContainer"] {{ font-size: {px}px !important; }}
[data-testid="stMain"] h1 {{ font-size: {int(px * 1.7)}px !important; }}
[data-testid="stMain"] h3 {{ font-size: {int(px * 1.4)}px !important; }}
[data-testid="stMain"] .katex {{ font-size: {int(px * 1.05)}px !important; }}
[data-testid="stMain"] code {{ font-size: {px - 2}px !important; }}
.st-key-class_teacher_panel {{ gap: 0.4rem !important; }}
@media (max-width: 700px) {{
  [data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label,
  [data-testid="stMain"] button {{ font-size: 18px !important; }}
  [data-testid="stMain"] h1, [data-testid="stMain"] h3 {{ font-size: 24px !important; }}
  [data-testid="stMain"] .katex {{ font-size: 16px !important; }}
}}
</style>"""



def scroll_to_step_script(heading: str, step: int) -> str:
    """A script for st.html(unsafe_allow_javascript=True): once the step's heading (an h3 starting with
    `heading`) is on the page, scroll Streamlit's main block (it scrolls, not the window) so the heading sits
    at the top of the screen. After Next on a phone the page was left at the bottom, ~550 px below the new
    step's title. `step` makes each step's script a new element, so it runs once per step change."""
    import json

    return f"""<script data-lesson-step="{int(step)}">(() => {{
  const prefix = {json.dumps(heading)}; const started = performance.now();
  const place = () => {{
    const main = document.querySelector('[data-testid=stMain]');
    const h = [...document.querySelectorAll('[data-testid=stMain] h3')]
      .find(e => e.innerText.trim().startsWith(prefix) && !e.closest('[data-stale=true],[data-retained=true]'));
    if (main && h) {{
      const header = document.querySelector('[data-testid=stHeader]');
      const top = header && getComputedStyle(header).display !== 'none' ? header.getBoundingClientRect().height : 0;
      main.scrollTo({{top: Math.max(0, main.scrollTop + h.getBoundingClientRect().top - top - 8)}});
      window.__lessonScrolledTo = {int(step)};
      return;
    }}
    if (performance.now() - started < 5000) requestAnimationFrame(place);
  }};
  requestAnimationFrame(place);
}})();</script>"""
