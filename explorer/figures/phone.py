"""Multi-panel figures for a phone: the same figure with its panels stacked in one column.

A figure of N panels side by side (the subplot grid of explorer.figures.base) is unreadable at 390 px: the
panels are ~80 px wide and their titles, axis titles and colour bars run into each other. `stack_panels`
moves every panel into its own row, full width, with room between rows for the tick labels and titles, and
moves each panel's title (paper annotations) and colour bar along with it. Pure: dicts in, Figure out.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

PANEL_PX = 260  # a stacked panel's plot height
GAP_PX = 150  # between two stacked panels: the upper one's tick labels and axis title, the lower one's title
TOP_PX, BOTTOM_PX = 70, 90  # the figure title above; the last panel's tick labels and axis title below
PLOT_RIGHT = 0.86  # leave the right edge to the colour bars


def _axis_pairs(layout: dict) -> list[tuple[str, str]]:
    """(x axis key, y axis key) of every panel, in plotly's axis order."""
    pairs = []
    for key in sorted((k for k in layout if k.startswith("xaxis")), key=lambda k: int(k[5:] or 1)):
        anchor = layout[key].get("anchor", "y")
        y_key = "yaxis" + anchor[1:]
        if y_key in layout:
            pairs.append((key, y_key))
    return pairs


def _domain(axis: dict) -> tuple[float, float]:
    lo, hi = axis.get("domain", (0.0, 1.0))
    return float(lo), float(hi)


def panel_cells(figure: go.Figure | dict) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The distinct (x domain, y domain) cells of a figure's panels, top row first, left to right."""
    layout = figure["layout"] if isinstance(figure, dict) else figure.to_dict()["layout"]
    cells = {(_domain(layout[x]), _domain(layout[y])) for x, y in _axis_pairs(layout)}
    return sorted(cells, key=lambda cell: (-cell[1][1], cell[0][0]))


def _inside(value: float, lo: float, hi: float, slack: float = 0.02) -> bool:
    return lo - slack <= value <= hi + slack


def stack_panels(figure: go.Figure) -> go.Figure:
    """`figure` with its side-by-side panels in one column (unchanged when it has one column already)."""
    spec: dict[str, Any] = figure.to_dict()
    layout = spec["layout"]
    pairs = _axis_pairs(layout)
    columns = {_domain(layout[x]) for x, _ in pairs}
    if len(columns) < 2:
        return figure
    cells = panel_cells(spec)
    n = len(cells)
    height = TOP_PX + BOTTOM_PX + n * PANEL_PX + (n - 1) * GAP_PX
    plot_height = height - TOP_PX - BOTTOM_PX
    new_cells = {}
    for index, cell in enumerate(cells):
        top = 1.0 - index * (PANEL_PX + GAP_PX) / plot_height
        new_cells[cell] = ((0.0, PLOT_RIGHT), (max(0.0, top - PANEL_PX / plot_height), top))
    axis_cell = {}
    for x_key, y_key in pairs:
        cell = (_domain(layout[x_key]), _domain(layout[y_key]))
        (nx, ny) = new_cells[cell]
        layout[x_key]["domain"] = list(nx)
        layout[y_key]["domain"] = list(ny)
        layout[y_key]["showticklabels"] = layout[y_key].get("showticklabels", True) or \
            layout[y_key].get("type") == "category"
        axis_cell[x_key[5:]], axis_cell[y_key[5:]] = cell, cell
    for annotation in layout.get("annotations", []):  # panel titles: paper coordinates inside or on a cell
        if annotation.get("xref", "paper") != "paper" or annotation.get("yref", "paper") != "paper":
            continue
        x, y = float(annotation.get("x", 0.5)), float(annotation.get("y", 0.5))
        for cell, (nx, ny) in new_cells.items():
            (x0, x1), (y0, y1) = cell
            if _inside(x, x0, x1) and _inside(y, y0, y1):
                annotation["x"] = nx[0] + (x - x0) / max(x1 - x0, 1e-9) * (nx[1] - nx[0])
                annotation["y"] = ny[0] + (y - y0) / max(y1 - y0, 1e-9) * (ny[1] - ny[0])
                break
    for trace in spec["data"]:  # a panel's own colour bar goes beside that panel
        bar = trace.get("colorbar")
        if bar is None or trace.get("showscale") is False or trace.get("coloraxis"):
            continue
        cell = axis_cell.get(trace.get("yaxis", "y")[1:])
        if cell is None:
            continue
        _, ny = new_cells[cell]
        bar.update({"x": 1.0, "xanchor": "left", "y": (ny[0] + ny[1]) / 2, "yanchor": "middle",
                    "len": ny[1] - ny[0], "lenmode": "fraction"})
    for name, axis in layout.items():  # a shared colour axis spans the whole column
        if name.startswith("coloraxis") and isinstance(axis, dict) and "colorbar" in axis:
            axis["colorbar"].update({"x": 1.0, "xanchor": "left", "y": 0.5, "yanchor": "middle", "len": 0.5})
    layout["height"] = height
    layout["margin"] = {**layout.get("margin", {}), "t": TOP_PX, "b": BOTTOM_PX}
    if "legend" in layout:
        layout["legend"]["y"] = -BOTTOM_PX / plot_height
    return go.Figure(spec, _validate=False)
