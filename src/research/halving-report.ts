import { formatDurationMs } from './duration.ts';
import type { RungResult } from './halving.ts';
import { esc, fmt, valueText } from './leaderboard-html.ts';

/** A point as `path=value, …` with the paths' last segments. */
const pointText = (p: ReadonlyArray<readonly [string, unknown]>): string => p.map(([k, v]) => `${k.split('.').at(-1)}=${valueText(v)}`).join(', ');

/** One row per rung: window, candidates run, survivors kept, the best objective and point. */
function rows(rungs: readonly RungResult[]): string[][] {
  return rungs.map((r) => {
    const best = r.leaderboard.entries[0];
    return [
      String(r.plan.index + 1),
      `first ${formatDurationMs(r.plan.lengthMs)}${r.plan.window.endMs === null ? ' (all data)' : ''}`,
      String(r.leaderboard.entries.length),
      r.survivors.length > 0 ? String(r.survivors.length) : '—',
      fmt(best?.objective, 4),
      best ? pointText(best.point) : '—',
    ];
  });
}

const HEAD = ['rung', 'window', 'candidates', 'survivors', 'best objective', 'best point'];

/** The rungs as a text table for the terminal. */
export function halvingTable(rungs: readonly RungResult[]): string {
  const body = rows(rungs);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: readonly string[]): string => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  return [line(HEAD), ...body.map(line)].join('\n');
}

/** The rungs as an HTML section for the leaderboard page. */
export function halvingHtml(rungs: readonly RungResult[], objective: string): string {
  const body = rows(rungs).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`);
  return [
    '<h2>Successive halving</h2>',
    `<p>Every candidate ran on the first rung's window; each rung kept the best 1/eta by ${esc(objective)} for the next, longer window (all windows start with the data). The ranking above puts points that reached a later rung first, then by that rung's ranking; the per-window columns are the rungs.</p>`,
    `<table><tr>${HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${body.join('')}</table>`,
  ].join('\n');
}

/** The rungs as JSON: window, candidates and survivors (parameters) per rung. */
export function halvingJson(rungs: readonly RungResult[]): string {
  const doc = rungs.map((r) => ({
    rung: r.plan.index + 1,
    window: r.plan.window,
    length_ms: r.plan.lengthMs,
    candidates: r.leaderboard.entries.map((e) => ({ params: Object.fromEntries(e.point), objective: Number.isFinite(e.objective) ? e.objective : null, error: e.error })),
    survivors: r.survivors.map((p) => Object.fromEntries(p)),
  }));
  return `${JSON.stringify(doc, null, 2)}\n`;
}
