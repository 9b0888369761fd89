import { CANDLE_WIDTHS, isCandleWidth, type CandleWidth } from './candles.ts';

/** Book levels a subscription may ask for. */
export type MdLevel = 'LEVEL_1' | 'LEVEL_2' | 'LEVEL_3' | 'TRADES';
const LEVELS: readonly string[] = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3', 'TRADES'];

/** A parsed market-data request. */
export type MdRequest =
  | { readonly rid: number; readonly type: 'subscribe'; readonly symbol: string; readonly level: MdLevel; readonly trades: boolean; readonly ticker: boolean }
  | { readonly rid: number; readonly type: 'unsubscribe'; readonly symbol: string }
  | {
      readonly rid: number;
      readonly type: 'subscribe_candles' | 'unsubscribe_candles' | 'subscribe_bbo_candles' | 'unsubscribe_bbo_candles';
      readonly symbol: string;
      readonly width: CandleWidth;
    };

/** A request that could not be parsed: the rid to answer (0 when unknown) and why. */
export interface MdRequestError {
  readonly rid: number;
  readonly message: string;
}

/** Parses one client frame; errors name the offending field. */
export function parseMdRequest(text: string): { ok: true; value: MdRequest } | { ok: false; error: MdRequestError } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: { rid: 0, message: 'request is not valid JSON' } };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: { rid: 0, message: 'request must be a JSON object' } };
  const r = v as Record<string, unknown>;
  const rid = typeof r['rid'] === 'number' && Number.isInteger(r['rid']) ? r['rid'] : 0;
  const fail = (message: string) => ({ ok: false as const, error: { rid, message } });
  if (typeof r['rid'] !== 'number' || !Number.isInteger(r['rid'])) return fail('rid: expected an integer');
  const symbol = r['symbol'];
  if (typeof symbol !== 'string' || symbol === '') return fail('symbol: expected a non-empty string');
  switch (r['type']) {
    case 'subscribe': {
      const level = r['level'] ?? 'LEVEL_2';
      if (typeof level !== 'string' || !LEVELS.includes(level)) return fail(`level: expected one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
      for (const k of ['trades', 'ticker'] as const) if (r[k] !== undefined && typeof r[k] !== 'boolean') return fail(`${k}: expected a boolean`);
      return { ok: true, value: { rid, type: 'subscribe', symbol, level: level as MdLevel, trades: r['trades'] !== false, ticker: r['ticker'] !== false } };
    }
    case 'unsubscribe':
      return { ok: true, value: { rid, type: 'unsubscribe', symbol } };
    case 'subscribe_candles':
    case 'unsubscribe_candles':
    case 'subscribe_bbo_candles':
    case 'unsubscribe_bbo_candles': {
      const width = r['width'];
      if (typeof width !== 'string' || !isCandleWidth(width)) return fail(`width: expected one of ${CANDLE_WIDTHS.join(', ')}, got ${JSON.stringify(width)}`);
      return { ok: true, value: { rid, type: r['type'], symbol, width } };
    }
    default:
      return fail(`type: unknown request type ${JSON.stringify(r['type'])}`);
  }
}
