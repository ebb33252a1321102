"""Charts drawn on the server as inline SVG (no script, no font from outside): a bar per day,
stacked by series, and a horizontal funnel. Every value is escaped text; colours are fixed."""
from __future__ import annotations

import gateway.admin.html as html

COLOURS = ("#1f3a5f", "#c05600", "#2e7d32", "#7b1fa2", "#00838f")
W, H, PAD = 720, 180, 28


def day_bars(title: str, days: list[str], series: dict[str, list[int]]) -> html.Safe:
    """Stacked bars, one per day; a legend names each series."""
    top = max([sum(values) for values in zip(*series.values(), strict=True)] or [0]) or 1
    step = (W - 2 * PAD) / max(len(days), 1)
    bars: list[str] = []
    for i, day in enumerate(days):
        y = float(H - PAD)
        for n, (name, values) in enumerate(series.items()):
            height = (H - 2 * PAD) * values[i] / top
            y -= height
            bars.append(f'<rect x="{PAD + i * step:.1f}" y="{y:.1f}" width="{max(step - 2, 1):.1f}" '
                        f'height="{height:.1f}" fill="{COLOURS[n % len(COLOURS)]}">'
                        f'<title>{html.esc(day)} {html.esc(name)}: {values[i]}</title></rect>')
    legend = [f'<text x="{PAD + n * 130}" y="14" font-size="12" fill="{COLOURS[n % len(COLOURS)]}">'
              f'■ {html.esc(name)} ({sum(values)})</text>' for n, (name, values) in enumerate(series.items())]
    axis = (f'<text x="{PAD}" y="{H - 8}" font-size="11">{html.esc(days[0] if days else "")}</text>'
            f'<text x="{W - PAD}" y="{H - 8}" font-size="11" text-anchor="end">{html.esc(days[-1] if days else "")}'
            f'</text><text x="2" y="{PAD + 4}" font-size="11">{top}</text>')
    return _svg(title, "".join(legend + bars) + axis, H)


def funnel(title: str, steps: list[tuple[str, int]]) -> html.Safe:
    """Horizontal bars, each its label and count."""
    top = max([n for _, n in steps] or [0]) or 1
    rows = []
    for i, (label, n) in enumerate(steps):
        y = 10 + i * 30
        width = (W - 220) * n / top
        rows.append(f'<text x="0" y="{y + 15}" font-size="12">{html.esc(label)}</text>'
                    f'<rect x="160" y="{y}" width="{width:.1f}" height="20" fill="{COLOURS[i % len(COLOURS)]}"/>'
                    f'<text x="{166 + width:.1f}" y="{y + 15}" font-size="12">{n}</text>')
    return _svg(title, "".join(rows), 20 + 30 * len(steps))


def _svg(title: str, body: str, height: int) -> html.Safe:
    return html.Safe(f'<figure class="chart"><figcaption>{html.esc(title)}</figcaption>'
                     f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{html.esc(title)}" '
                     f'viewBox="0 0 {W} {height}" width="{W}" height="{height}">{body}</svg></figure>')
