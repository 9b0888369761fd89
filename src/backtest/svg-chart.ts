/** A line series for an SVG chart. NaN values break the line. */
export interface LineSeries {
  readonly label: string;
  readonly color: string;
  readonly y: readonly number[];
  /** Draw as steps (quotes) rather than straight segments. */
  readonly step?: boolean;
  /** Thicker stroke (the headline line, e.g. net PnL among its parts). */
  readonly bold?: boolean;
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

/** Round axis ticks: `step` is 1, 2 or 5 × 10^k, `decimals` the digits that step needs. */
export interface NiceTicks {
  readonly ticks: readonly number[];
  readonly step: number;
  readonly decimals: number;
}

const W = 960;
const H = 260;
const PAD = { l: 70, r: 12, t: 24, b: 28 };
/** At most this many intervals between ticks on an axis (≤ 8 labels: readable at 10 px). */
const MAX_INTERVALS = 7;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f2 = (v: number): string => v.toFixed(1);

/**
 * "Nice numbers" for an axis over [min, max] (Heckbert's graphics-gems idea): the smallest step of
 * 1, 2 or 5 × 10^k that covers the range in at most `maxIntervals` intervals, and the ticks from
 * the multiple of the step at or below `min` to the one at or above `max`. 0–11.51 → 0, 2, …, 12
 * (not 0.00 / 5.75 / 11.51). Ticks are rounded to the step's decimals, so 0.1 × 3 reads 0.3.
 * `inside` keeps only the ticks within [min, max] (a time axis that should not run past the data).
 */
export function niceTicks(min: number, max: number, maxIntervals = MAX_INTERVALS, inside = false): NiceTicks {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ticks: [0, 1], step: 1, decimals: 0 };
  if (max < min) [min, max] = [max, min];
  if (max - min < 1e-12 * Math.max(1, Math.abs(max))) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.01;
    ((min -= pad), (max += pad));
  }
  let exp = Math.floor(Math.log10((max - min) / maxIntervals));
  for (;;) {
    for (const m of [1, 2, 5]) {
      // m × 10^exp without the error of a fractional power: 2 / 10 is the double nearest 0.2.
      const step = exp < 0 ? m / 10 ** -exp : m * 10 ** exp;
      const lo = Math.floor(min / step + 1e-9);
      const hi = Math.ceil(max / step - 1e-9);
      if (hi - lo > maxIntervals) continue;
      const decimals = Math.max(0, -exp);
      const ticks: number[] = [];
      for (let k = lo; k <= hi; k++) {
        const v = Number((k * step).toFixed(decimals));
        if (!inside || (v >= min - step * 1e-9 && v <= max + step * 1e-9)) ticks.push(v === 0 ? 0 : v); // no -0
      }
      return { ticks, step, decimals };
    }
    exp++;
  }
}

/** Elapsed time on an x axis in the unit that keeps labels short: s up to 10 min, min up to 10 h, else h. */
function timeUnit(spanS: number): { unit: string; s: number } {
  return spanS <= 600 ? { unit: 's', s: 1 } : spanS <= 36_000 ? { unit: 'min', s: 60 } : { unit: 'h', s: 3600 };
}

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
 * ms; the x axis shows elapsed time from the first x at round steps (s, min or h). The y axis runs
 * over round ticks (`niceTicks`) that cover the data, labelled with the step's decimals unless
 * `yFormat` is given. Output is deterministic for equal input.
 */
export function lineChart(title: string, x: readonly number[], lines: readonly LineSeries[], markers: readonly MarkerSeries[] = [], yFormat?: (v: number) => string): string {
  let dMin = Infinity;
  let dMax = -Infinity;
  for (const l of lines) for (const v of l.y) if (Number.isFinite(v)) ((dMin = Math.min(dMin, v)), (dMax = Math.max(dMax, v)));
  for (const m of markers) for (const v of m.y) if (Number.isFinite(v)) ((dMin = Math.min(dMin, v)), (dMax = Math.max(dMax, v)));
  if (!Number.isFinite(dMin)) ((dMin = 0), (dMax = 1));
  const yt = niceTicks(dMin, dMax);
  const yMin = yt.ticks[0]!;
  const yMax = yt.ticks.at(-1)!;
  const fmt = yFormat ?? ((v: number) => v.toFixed(yt.decimals));
  const x0 = x[0] ?? 0;
  const x1 = Math.max(x.at(-1) ?? 1, x0 + 1);
  const sx = (v: number): number => PAD.l + ((v - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (v: number): number => H - PAD.b - ((v - yMin) / (yMax - yMin)) * (H - PAD.t - PAD.b);
  const parts: string[] = [];
  parts.push(`<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">`);
  parts.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${PAD.l}" y="16" font-size="13" font-family="sans-serif" font-weight="bold">${esc(title)}</text>`);
  for (const v of yt.ticks) {
    const y = sy(v);
    parts.push(`<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${f2(y)}" y2="${f2(y)}" stroke="${v === 0 && yMin < 0 ? '#bbb' : '#eee'}"/>`);
    parts.push(`<text x="${PAD.l - 4}" y="${f2(y + 4)}" font-size="10" text-anchor="end" font-family="monospace">${esc(fmt(v))}</text>`);
  }
  const spanS = (x1 - x0) / 1000;
  const tu = timeUnit(spanS);
  const xt = niceTicks(0, spanS / tu.s, MAX_INTERVALS, true);
  for (const v of xt.ticks) {
    parts.push(`<text x="${f2(sx(x0 + v * tu.s * 1000))}" y="${H - 8}" font-size="10" text-anchor="middle" font-family="monospace">${v.toFixed(xt.decimals)}${tu.unit}</text>`);
  }
  const idx = downsampleIndices(x.length, 1500);
  for (const l of lines) {
    let d = '';
    let pen = false;
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
    }
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${l.color}" stroke-width="${l.bold ? 2.2 : 1.2}"/>`);
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
