import type { Dist } from '../backtest/ensemble-stats.ts';
import type { EnsembleResult } from './ensemble.ts';
import { esc, fmt, pageStart } from './leaderboard-html.ts';

/** A dot strip of values on a shared axis with the p5–p95 band and the median marked (inline SVG). */
function strip(label: string, values: readonly number[], d: Dist, lo: number, hi: number, color: string): string {
  const w = 720;
  const h = 56;
  const x = (v: number): number => 40 + ((v - lo) / (hi - lo || 1)) * (w - 80);
  const dots = values.map((v, k) => `<circle cx="${x(v).toFixed(1)}" cy="${(22 + (k % 5) * 5).toFixed(1)}" r="3.5" fill="${color}" fill-opacity="0.7"/>`).join('');
  const band = Number.isFinite(d.p5) ? `<rect x="${x(d.p5).toFixed(1)}" y="14" width="${Math.max(1, x(d.p95) - x(d.p5)).toFixed(1)}" height="34" fill="${color}" fill-opacity="0.12"/>` : '';
  const med = Number.isFinite(d.p50) ? `<line x1="${x(d.p50).toFixed(1)}" x2="${x(d.p50).toFixed(1)}" y1="10" y2="52" stroke="${color}" stroke-width="2"/>` : '';
  const zero = lo < 0 && hi > 0 ? `<line x1="${x(0).toFixed(1)}" x2="${x(0).toFixed(1)}" y1="6" y2="56" stroke="#888" stroke-dasharray="3 3"/>` : '';
  return `<p>${esc(label)}</p><svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h + 14}" role="img"><text x="40" y="${h + 12}" font-size="11">${fmt(lo, 0)}</text><text x="${w - 40}" y="${h + 12}" font-size="11" text-anchor="end">${fmt(hi, 0)}</text>${band}${zero}${med}${dots}</svg>`;
}

const distRow = (name: string, d: Dist, digits = 2): string => `<tr><th>${esc(name)}</th><td>${fmt(d.mean, digits)}</td><td>${fmt(d.sd, digits)}</td><td>${fmt(d.p5, digits)}</td><td>${fmt(d.p50, digits)}</td><td>${fmt(d.p95, digits)}</td></tr>`;

/**
 * ensemble.html: the distribution of net for each config (dots on one axis, p5–p95 band, median),
 * the paired differences, the summary tables, which perturbation moves net most, and every draw
 * sorted by net. Self-contained (inline SVG and CSS, no scripts).
 */
export function ensembleHtml(r: EnsembleResult): string {
  const legs = [{ config: r.config, summary: r.summary, runs: r.runs, sensitivity: r.sensitivity }, ...(r.vs ? [r.vs] : [])];
  const nets = legs.map((l) => l.runs.filter((x) => x.error === null).map((x) => x.net_usd));
  const all = nets.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const colors = ['#0969da', '#bf3989'];
  const out = [pageStart(`Ensemble: ${r.ensemble.draws} draws, seed ${r.ensemble.seed}`)];
  out.push(`<p class="note">Data: ${esc(r.ensemble.data.join(', '))}. Each draw replays the same data with seeded perturbations (order latency, feed jitter, start time, queue model on level data, competitor reaction); with two configs both run on the same draws.</p>`);
  out.push('<h2>Net per draw (USD)</h2>');
  legs.forEach((l, k) => out.push(strip(`${l.config}: median ${fmt(l.summary.net_usd.p50, 2)} [p5 ${fmt(l.summary.net_usd.p5, 2)}, p95 ${fmt(l.summary.net_usd.p95, 2)}], P(net > 0) ${fmt(l.summary.p_net_positive * 100, 0)} %`, nets[k]!, l.summary.net_usd, lo, hi, colors[k]!)));
  if (r.paired && r.vs) {
    const diffs = r.runs.map((a, k) => (a.error === null && r.vs!.runs[k]!.error === null ? a.net_usd - r.vs!.runs[k]!.net_usd : NaN)).filter(Number.isFinite);
    out.push('<h2>Paired differences</h2>');
    out.push(strip(`net(${r.config}) − net(${r.vs.config}): median ${fmt(r.paired.diff_net_usd.p50, 2)} [p5 ${fmt(r.paired.diff_net_usd.p5, 2)}, p95 ${fmt(r.paired.diff_net_usd.p95, 2)}], P(better) ${fmt(r.paired.p_better * 100, 0)} %`, diffs, r.paired.diff_net_usd, Math.min(0, ...diffs), Math.max(0, ...diffs), '#1a7f37'));
  }
  for (const l of legs) {
    out.push(`<h2>${esc(l.config)}</h2><table><tr><th></th><th>mean</th><th>sd</th><th>p5</th><th>p50</th><th>p95</th></tr>`);
    out.push(distRow('net USD', l.summary.net_usd), distRow('edge bps', l.summary.edge_bps), distRow('max drawdown USD', l.summary.max_drawdown_usd), distRow('fills', l.summary.fills, 1), distRow('markout 10 s bps', l.summary.markout_10s_bps));
    out.push(`</table><p>P(net &gt; 0) ${fmt(l.summary.p_net_positive * 100, 0)} % of ${l.summary.runs - l.summary.failed} draws${l.summary.failed > 0 ? ` (${l.summary.failed} failed)` : ''}.</p>`);
    out.push('<p>Which perturbation moves net most (share of variance each explains alone: r², η² for the queue model):</p><table><tr><th>perturbation</th><th>share of variance</th></tr>');
    for (const s of l.sensitivity) out.push(`<tr><th>${esc(s.perturbation)}</th><td>${fmt(s.share_of_variance, 3)}</td></tr>`);
    out.push('</table>');
    out.push('<p>Draws sorted by net:</p><table><tr><th>draw</th><th>net USD</th><th>edge bps</th><th>fills</th><th>latency ×</th><th>feed jitter ms</th><th>start +min</th><th>queue model</th><th>reaction p</th><th>reaction delay ms</th></tr>');
    for (const x of [...l.runs].sort((a, b) => b.net_usd - a.net_usd || a.draw.index - b.draw.index)) {
      const d = x.draw;
      out.push(`<tr><td>${d.index}</td><td>${x.error === null ? fmt(x.net_usd, 2) : esc(x.error)}</td><td>${fmt(x.edge_bps, 2)}</td><td>${x.fills}</td><td>${fmt(d.latency_scale, 2)}</td><td>${fmt(d.feed_jitter_ms, 2)}</td><td>${fmt(d.start_offset_min, 1)}</td><td>${esc(d.queue_model ?? '—')}</td><td>${fmt(d.reaction_probability, 2)}</td><td>${fmt(d.reaction_delay_ms, 1)}</td></tr>`);
    }
    out.push('</table>');
  }
  out.push('</body></html>\n');
  return out.join('\n');
}
