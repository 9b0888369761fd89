/**
 * Figures for people, shared by the backtest's console summary: USD with 2 decimals, bps with 2,
 * shares as percentages, and which fee rates were charged and where they came from.
 */

const dash = '—';
/** USD with cents; the report keeps exact decimal strings, the console rounds. */
export const usd = (v: number | string): string => Number(v).toFixed(2);
export const bps = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? dash : v.toFixed(2));
export const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;

const FEE_SOURCES: Readonly<Record<string, string>> = {
  config: 'from the config',
  recording: "the recording's account rates",
  account: "the account's rates",
  'venue-default': "the venue's default schedule",
};

/**
 * The fee rates a backtest charged, first in its output: one line per symbol, and a warning when
 * the config set none, since fees routinely decide the sign of a market maker's net.
 */
export function feeLines(fees: Readonly<Record<string, { maker: number; taker: number; source: string }>>): string[] {
  const lines: string[] = [];
  for (const [sym, f] of Object.entries(fees)) {
    const where = FEE_SOURCES[f.source] ?? f.source;
    lines.push(`fees ${sym}: maker ${f.maker} / taker ${f.taker} of notional (${where})`);
    if (f.source !== 'config') {
      lines.push(`warning: no fee rates in the config for ${sym}: charging ${where} (maker ${f.maker}, taker ${f.taker}); set bot.fee_rates or backtest.fees to choose them`);
    }
  }
  return lines;
}
