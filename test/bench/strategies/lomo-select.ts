/**
 * The pure part of the leave-one-market-out bench (lomo.ts does the I/O): a stable key of a
 * candidate's params, the held-out choice of each market, a default's verdict, and the two tables
 * (the default against the baseline per market; one evidence row per default).
 */
import { createHash } from 'node:crypto';
import type { LomoGroup } from './lomo-groups.ts';

/** Quantiles and moments of one figure across an ensemble's draws (ensemble.json). */
export interface Dist { readonly mean: number; readonly sd: number; readonly p5: number; readonly p50: number; readonly p95: number }
/** An ensemble's summary (the fields the tables read). */
export interface Summary { readonly runs: number; readonly net_usd: Dist; readonly edge_bps: Dist; readonly fills: Dist; readonly uptime_two_sided: Dist; readonly p_net_positive: number }
/** ensemble.json as far as the bench reads it: the strategy, the baseline (`vs`) and the pairing. */
export interface Ensemble { readonly summary: Summary; readonly vs?: { readonly summary: Summary }; readonly paired?: { readonly p_better: number } }

/** Stable key of a candidate's params: sha256 of their JSON with keys sorted, 12 hex digits ({} for the default). */
export function paramsKey(params: Readonly<Record<string, unknown>>): string {
  const sorted = Object.fromEntries(Object.keys(params).sort().map((k) => [k, params[k]]));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 12);
}

/** A non-finite figure (e.g. the edge of a run without fills) ranks below every finite one. */
const val = (v: number): number => (Number.isFinite(v) ? v : -Infinity);

/**
 * Index of the best candidate among `indices`: the lowest mean rank, then the highest mean edge,
 * then the first (so the default wins ties); -1 when empty.
 */
function best(rank: readonly number[], edge: readonly number[], indices: readonly number[]): number {
  let at = -1;
  for (const i of indices) if (at < 0 || rank[i]! < rank[at]! || (rank[i] === rank[at] && val(edge[i]!) > val(edge[at]!))) at = i;
  return at;
}

/** Each candidate's rank on market `m` by median edge (1 = best; ties share their mean rank). */
function ranksOn(edges: readonly (readonly number[])[], m: number): number[] {
  return edges.map((row) => {
    const x = val(row[m]!);
    let above = 0;
    let same = 0;
    for (const other of edges) {
      const y = val(other[m]!);
      if (y > x) above++;
      else if (y === x) same++;
    }
    return above + (same + 1) / 2;
  });
}

/** What the selection did with one market held out. */
export interface HeldOut {
  readonly market: string;
  /** The candidate with the best mean rank on the other markets (ties: the higher mean edge, then the default). */
  readonly chosen: number;
  /** Its mean rank on the other markets (1 = best on each). */
  readonly score: number;
  /** Its mean median edge on the other markets, bps. */
  readonly meanEdge: number;
  /** The default's median edge on the held-out market, bps. */
  readonly defaultEdge: number;
  /** The alternative (not the default) ranked best on the other markets, and its held-out median edge, bps. */
  readonly bestAlt: number;
  readonly bestAltEdge: number;
  /** The chosen candidate's held-out median edge, bps. */
  readonly chosenEdge: number;
}

/**
 * Leave one market out: `edges[candidate][market]` median edges (bps, candidate 0 the default);
 * for each market the candidates are ranked by their mean rank over the other markets, not their
 * mean edge: edges differ in scale from market to market (a few tenths of a bps on a liquid stock,
 * several bps on a one-tick spot pair), and a mean would let the widest market choose for all.
 * @throws Error when a row's length is not the number of markets or there are under 2 markets.
 */
export function selectHeldOut(edges: readonly (readonly number[])[], markets: readonly string[]): HeldOut[] {
  if (markets.length < 2) throw new Error(`selectHeldOut: needs at least 2 markets, got ${markets.length}`);
  edges.forEach((row, c) => {
    if (row.length !== markets.length) throw new Error(`selectHeldOut: candidate ${c} has ${row.length} edges for ${markets.length} markets`);
  });
  const all = edges.map((_, c) => c);
  const ranks = markets.map((_, m) => ranksOn(edges, m));
  return markets.map((market, h) => {
    const others = markets.length - 1;
    const rank = all.map((c) => ranks.reduce((a, r, m) => (m === h ? a : a + r[c]!), 0) / others);
    const edge = edges.map((row) => row.reduce((a, e, m) => (m === h ? a : a + val(e)), 0) / others);
    const chosen = best(rank, edge, all);
    const bestAlt = best(rank, edge, all.slice(1));
    return { market, chosen, score: rank[chosen]!, meanEdge: edge[chosen]!, defaultEdge: edges[0]![h]!, bestAlt, bestAltEdge: bestAlt < 0 ? Number.NaN : edges[bestAlt]![h]!, chosenEdge: edges[chosen]![h]! };
  });
}

/** A default's verdict over the held-out markets. */
export interface Verdict {
  /** Markets whose held-out choice is the default. */
  readonly chosenDefault: number;
  /** The most markets on which one and the same alternative is the held-out choice and beats the default there. */
  readonly altWins: number;
  /** That alternative (candidate index), -1 when none wins anywhere. */
  readonly winner: number;
  readonly markets: number;
  /**
   * A default changes only when one alternative is the held-out choice and beats it on most
   * markets: it holds otherwise (different alternatives winning on different markets is no case
   * for any one of them).
   */
  readonly holds: boolean;
}

/** The verdict of one group's selection ("most" = more than half of the markets). */
export function verdictOf(held: readonly HeldOut[]): Verdict {
  const n = held.length;
  const chosenDefault = held.filter((h) => h.chosen === 0).length;
  const wins = new Map<number, number>();
  for (const h of held) if (h.chosen !== 0 && val(h.chosenEdge) > val(h.defaultEdge)) wins.set(h.chosen, (wins.get(h.chosen) ?? 0) + 1);
  let winner = -1;
  for (const [c, k] of wins) if (winner < 0 || k > wins.get(winner)! || (k === wins.get(winner) && c < winner)) winner = c;
  const altWins = winner < 0 ? 0 : wins.get(winner)!;
  return { chosenDefault, altWins, winner, markets: n, holds: 2 * altWins <= n };
}

/** The verdict in words: `holds`, or on which share of markets one alternative wins out of sample. */
export function verdictText(v: Verdict, name: (c: number) => string = (c) => `candidate ${c}`): string {
  if (v.winner < 0) return 'holds';
  const wins = `${name(v.winner)} wins out of sample on ${v.altWins}/${v.markets}`;
  return v.holds ? `holds (${wins}: not most)` : `${wins}: change it`;
}

const f = (v: number, d = 2): string => (Number.isFinite(v) ? v.toFixed(d) : '–');
const pct = (v: number): string => (Number.isFinite(v) ? `${Math.round(v * 100)} %` : '–');
const span = (d: Dist, digits = 2): string => `${f(d.p50, digits)} [${f(d.p5, digits)}, ${f(d.p95, digits)}]`;

/** One group's outcome for the defaults table; `skipped` (why it did not run) replaces the figures. */
export interface GroupOutcome {
  readonly group: LomoGroup;
  readonly held?: readonly HeldOut[];
  readonly pbo?: number | null;
  readonly skipped?: string;
}

/** The value an alternative sets (its label without the parameter's name). */
const valueOf = (g: LomoGroup, c: number): string => g.candidates[c]!.label.replace(`${g.param} `, '').replace(' (default)', '');

/**
 * The evidence table: one row per default, its held-out median edge and the best alternative's on
 * each market, how often the default is the held-out choice, the PBO and the verdict.
 */
export function formatDefaultsTable(outcomes: readonly GroupOutcome[], markets: readonly string[]): string {
  const head = `| parameter | default | alternatives | ${markets.map((m) => `${m}: default / best alternative (bps)`).join(' | ')} | default chosen held out | PBO | verdict |`;
  const rule = `|---|---|---|${markets.map(() => '---:|').join('')}---:|---:|---|`;
  const rows = outcomes.map(({ group: g, held, pbo, skipped }) => {
    const alts = g.candidates.slice(1).map((_, i) => valueOf(g, i + 1)).join(', ');
    const lead = `| ${g.param} | ${valueOf(g, 0)} | ${alts} |`;
    if (skipped !== undefined || !held) return `${lead}${markets.map(() => ' – |').join('')} – | – | not run: ${skipped ?? 'no results'} |`;
    const cells = held.map((h) => ` ${f(h.defaultEdge)} / ${f(h.bestAltEdge)} (${h.bestAlt < 0 ? '–' : valueOf(g, h.bestAlt)}) |`).join('');
    const v = verdictOf(held);
    return `${lead}${cells} ${v.chosenDefault}/${v.markets} | ${pbo === null || pbo === undefined ? 'n/a' : pbo.toFixed(2)} | ${verdictText(v, (c) => valueOf(g, c))} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** One market's default and baseline ensembles, for the detailed table. */
export interface MarketDefault { readonly market: string; readonly ensemble: Ensemble }

/**
 * The issue's target on one market, in words: "met", or what was missed. Median edge ≥ 0 bps,
 * two-sided uptime ≥ 50 %, and beating the baseline on ≥ 90 % of the paired draws.
 */
export function targetOf(e: Ensemble): string {
  const s = e.summary;
  const missed: string[] = [];
  if (!(s.edge_bps.p50 >= 0)) missed.push(`median edge ${f(s.edge_bps.p50)} < 0`);
  if (!(s.uptime_two_sided.p50 >= 0.5)) missed.push(`uptime ${pct(s.uptime_two_sided.p50)} < 50 %`);
  const p = e.paired?.p_better;
  if (p === undefined || !(p >= 0.9)) missed.push(`beats the baseline on ${p === undefined ? '–' : pct(p)} < 90 %`);
  return missed.length === 0 ? 'met' : `missed: ${missed.join(', ')}`;
}

/** The detailed table: on every market the default against the baseline, median [p5, p95] over the draws, and the target. */
export function formatMarketsTable(rows: readonly MarketDefault[]): string {
  const line = (market: string, who: string, s: Summary, pBetter: number | null, target: string): string =>
    `| ${market} | ${who} | ${span(s.net_usd)} | ${span(s.edge_bps)} | ${pct(s.p_net_positive)} | ${pBetter === null ? '–' : pct(pBetter)} | ${pct(s.uptime_two_sided.p50)} | ${f(s.fills.p50, 0)} | ${target} |`;
  return [
    '| market | setting | net USD | edge bps | P(net > 0) | P(beats baseline) | two-sided uptime p50 | fills p50 | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.flatMap(({ market, ensemble: e }) => [
      line(market, 'glft defaults', e.summary, e.paired?.p_better ?? null, targetOf(e)),
      ...(e.vs ? [line(market, 'baseline: fixed-spread priceSkew=1', e.vs.summary, null, '–')] : []),
    ]),
  ].join('\n');
}

/** The summary figures the results file keeps of one ensemble (medians, 5th/95th percentiles, shares). */
export function figuresOf(e: Ensemble): Record<string, number | null> {
  const s = e.summary;
  return {
    edge_bps_p50: s.edge_bps.p50, edge_bps_p5: s.edge_bps.p5, edge_bps_p95: s.edge_bps.p95,
    net_usd_p50: s.net_usd.p50, net_usd_p5: s.net_usd.p5, net_usd_p95: s.net_usd.p95,
    p_net_positive: s.p_net_positive, p_beats_baseline: e.paired?.p_better ?? null,
    uptime_two_sided_p50: s.uptime_two_sided.p50, fills_p50: s.fills.p50,
  };
}
