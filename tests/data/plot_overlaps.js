// One plotly chart's panels, panel titles (annotations), colour bars and axis titles as screen boxes;
// returns a line for every pair of them that overlaps by more than a pixel (tests/test_browser_screens.py).
(plot) => {
  const boxes = [];
  const add = (kind, el) => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      boxes.push({kind, name: (el.textContent || '').slice(0, 30), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
    }
  };
  plot.querySelectorAll('.draglayer .nsewdrag').forEach(el => add('panel', el));
  plot.querySelectorAll('g.annotation').forEach(el => add('title', el));
  plot.querySelectorAll('g.colorbar').forEach(el => add('colorbar', el));
  plot.querySelectorAll('[class^=g-x][class$=title] text, [class^=g-y][class$=title] text')
    .forEach(el => add('axis title', el));
  const clash = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 1 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 1;
  const found = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (clash(boxes[i], boxes[j])) {
        found.push(`${boxes[i].kind} "${boxes[i].name}" overlaps ${boxes[j].kind} "${boxes[j].name}"`);
      }
    }
  }
  return found;
}
