/** A line series for an SVG chart. NaN values break the line. */
export interface LineSeries {
  readonly label: string;
  readonly color: string;
  readonly y: readonly number[];
  /** Draw as steps (quotes) rather than straight segments. */
  readonly step?: boolean;
}

/** Point markers (fills). */
export interface MarkerSeries {
  readonly label: string;
  readonly color: string;
  readonly x: readonly number[];
  readonly y: readonly number[];
  /** Triangle pointing up (buys) or down (sells). */
  readonly up: boolean;
}

const W = 960;
const H = 260;
const PAD = { l: 70, r: 12, t: 24, b: 28 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f2 = (v: number): string => v.toFixed(1);

/** Keeps at most `max` evenly spaced indices (always the last), so charts stay small. */
export function downsampleIndices(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const step = n / max;
  const out: number[] = [];
  for (let k = 0; k < max; k++) out.push(Math.floor(k * step));
  if (out.at(-1) !== n - 1) out.push(n - 1);
  return out;
}

/**
 * Renders a self-contained inline SVG line chart (no scripts, no external references). `x` are epoch
 * ms; axis labels show elapsed seconds from the first x. Output is deterministic for equal input.
 */
export function lineChart(title: string, x: readonly number[], lines: readonly LineSeries[], markers: readonly MarkerSeries[] = [], yFormat: (v: number) => string = (v) => v.toFixed(2)): string {
  let yMin = Infinity;
  let yMax = -Infinity;
  for (const l of lines) for (const v of l.y) if (Number.isFinite(v)) ((yMin = Math.min(yMin, v)), (yMax = Math.max(yMax, v)));
  for (const m of markers) for (const v of m.y) if (Number.isFinite(v)) ((yMin = Math.min(yMin, v)), (yMax = Math.max(yMax, v)));
  if (!Number.isFinite(yMin)) ((yMin = 0), (yMax = 1));
  if (yMax - yMin < 1e-12) ((yMin -= 1), (yMax += 1));
  const x0 = x[0] ?? 0;
  const x1 = Math.max(x.at(-1) ?? 1, x0 + 1);
  const sx = (v: number): number => PAD.l + ((v - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (v: number): number => H - PAD.b - ((v - yMin) / (yMax - yMin)) * (H - PAD.t - PAD.b);
  const parts: string[] = [];
  parts.push(`<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">`);
  parts.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${PAD.l}" y="16" font-size="13" font-family="sans-serif" font-weight="bold">${esc(title)}</text>`);
  for (let k = 0; k <= 4; k++) {
    const v = yMin + ((yMax - yMin) * k) / 4;
    const y = sy(v);
    parts.push(`<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${f2(y)}" y2="${f2(y)}" stroke="#eee"/>`);
    parts.push(`<text x="${PAD.l - 4}" y="${f2(y + 4)}" font-size="10" text-anchor="end" font-family="monospace">${esc(yFormat(v))}</text>`);
  }
  for (let k = 0; k <= 5; k++) {
    const v = x0 + ((x1 - x0) * k) / 5;
    parts.push(`<text x="${f2(sx(v))}" y="${H - 8}" font-size="10" text-anchor="middle" font-family="monospace">${((v - x0) / 1000).toFixed(0)}s</text>`);
  }
  const idx = downsampleIndices(x.length, 1500);
  for (const l of lines) {
    let d = '';
    let pen = false;
    let prevY = NaN;
    for (const i of idx) {
      const v = l.y[i]!;
      if (!Number.isFinite(v)) {
        pen = false;
        continue;
      }
      const px = f2(sx(x[i]!));
      if (!pen) d += `M${px},${f2(sy(v))}`;
      else if (l.step) d += `H${px}V${f2(sy(v))}`;
      else d += `L${px},${f2(sy(v))}`;
      pen = true;
      prevY = v;
    }
    void prevY;
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${l.color}" stroke-width="1.2"/>`);
  }
  for (const m of markers) {
    const mi = downsampleIndices(m.x.length, 2000);
    let d = '';
    for (const i of mi) {
      const cx = sx(m.x[i]!);
      const cy = sy(m.y[i]!);
      d += m.up ? `M${f2(cx)},${f2(cy - 4)}l4,7h-8z` : `M${f2(cx)},${f2(cy + 4)}l4,-7h-8z`;
    }
    if (d) parts.push(`<path d="${d}" fill="${m.color}" fill-opacity="0.8"/>`);
  }
  let lx = W - PAD.r;
  for (const l of [...lines, ...markers].reverse()) {
    const w = 18 + l.label.length * 6.5; // swatch, gap, label (≈6.5 px a character at 10 px sans-serif) and room before the next
    lx -= w;
    parts.push(`<rect x="${f2(lx)}" y="7" width="9" height="9" fill="${l.color}"/><text x="${f2(lx + 12)}" y="15" font-size="10" font-family="sans-serif">${esc(l.label)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
