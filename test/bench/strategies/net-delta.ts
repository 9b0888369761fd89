/**
 * Net-delta and hedge-cost figures of a multi-leg backtest, from its fills.csv: the positions after
 * each fill give the pair's net delta as a step function of time; taker fills are the hedges.
 */

/** What a hedged strategy's rows add to the table. */
export interface HedgeFigures {
  /** Share of the window with |Σ position| ≤ band (contracts, multipliers of 1 assumed). */
  readonly inBandShare: number;
  readonly hedges: number;
  /** Half-spread crossed plus taker fees of the taker fills, USD. */
  readonly hedgeCostUsd: number;
}

/**
 * Reads fills.csv text (header with symbol, liquidity, price, qty, fee, mid, position_after,
 * ts_exchange_ms) and computes the figures over [startMs, endMs].
 */
export function hedgeFigures(csv: string, startMs: number, endMs: number, band: number): HedgeFigures {
  const [head, ...lines] = csv.trim().split('\n');
  const col = Object.fromEntries(head!.split(',').map((c, i) => [c, i]));
  const pos = new Map<string, number>();
  let delta = 0;
  let lastMs = startMs;
  let inBandMs = 0;
  let hedges = 0;
  let cost = 0;
  for (const line of lines) {
    if (line.length === 0) continue;
    const f = line.split(',');
    const ts = Number(f[col['ts_exchange_ms']!]);
    if (Math.abs(delta) <= band) inBandMs += Math.max(0, Math.min(ts, endMs) - lastMs);
    lastMs = Math.max(lastMs, Math.min(ts, endMs));
    pos.set(f[col['symbol']!]!, Number(f[col['position_after']!]));
    delta = 0;
    for (const q of pos.values()) delta += q;
    if (f[col['liquidity']!] === 'taker') {
      hedges++;
      cost += Math.abs(Number(f[col['price']!]) - Number(f[col['mid']!])) * Number(f[col['qty']!]) + Number(f[col['fee']!]);
    }
  }
  if (Math.abs(delta) <= band) inBandMs += Math.max(0, endMs - lastMs);
  return { inBandShare: endMs > startMs ? inBandMs / (endMs - startMs) : 1, hedges, hedgeCostUsd: cost };
}
