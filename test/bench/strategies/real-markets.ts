/**
 * The real markets `npm run bench:strategies -- --real-data [dir]` replays: the shared AMZN LOBSTER
 * day and the BTCUSDT capture, imported with the repo's importers at their true fees, and the
 * windows each is judged on. Pure definitions: run-real.ts does the I/O.
 */

/** One real market: how to import it and what one order of it is. */
export interface RealMarket {
  readonly name: string;
  readonly symbol: string;
  /** Sub-folder of the data directory. */
  readonly folder: string;
  /** `mmbot import` arguments after the sub-command, with `{dir}` the market's folder. */
  readonly importArgs: readonly string[];
  readonly importer: 'lobster' | 'tardis';
  /** Instrument file (YAML) written for the importer: the source's true fees. */
  readonly instrument: Readonly<Record<string, string | number>>;
  /** Contracts per quote and the hard cap: the only parameters the built-ins are given. */
  readonly size: number;
  readonly maxPosition: number;
  readonly windows: readonly RealWindow[];
}

/** A window of a recording, epoch ms (null = from the start / to the end). */
export interface RealWindow {
  readonly name: string;
  readonly startMs: number | null;
  readonly endMs: number | null;
}

// 2012-06-21 New York (EDT, UTC−4): 09:30 = 13:30 UTC, 12:45 = 16:45 UTC, 16:00 = 20:00 UTC.
const AMZN_OPEN = Date.UTC(2012, 5, 21, 13, 30);
const AMZN_SPLIT = Date.UTC(2012, 5, 21, 16, 45);
const AMZN_CLOSE = Date.UTC(2012, 5, 21, 20, 0);

/** Morning = development window, afternoon = out of sample, full = the whole session. */
export const AMZN_WINDOWS: readonly RealWindow[] = [
  { name: 'full', startMs: null, endMs: null },
  { name: 'morning', startMs: AMZN_OPEN, endMs: AMZN_SPLIT },
  { name: 'afternoon', startMs: AMZN_SPLIT, endMs: AMZN_CLOSE },
];

/**
 * The AMZN session hour by hour (the last one 15:30–16:00), each window starting cold: one day
 * cut into seven draws, to see whether a difference between two configurations holds hour after
 * hour or comes from one stretch of the day.
 */
export const AMZN_HOURS: readonly RealWindow[] = Array.from({ length: 7 }, (_, h) => {
  const startMs = AMZN_OPEN + h * 3_600_000;
  const hhmm = (ms: number): string => new Date(ms - 4 * 3_600_000).toISOString().slice(11, 16);
  const endMs = Math.min(startMs + 3_600_000, AMZN_CLOSE);
  return { name: `${hhmm(startMs)}–${hhmm(endMs)}`, startMs, endMs };
});

export const REAL_MARKETS: readonly RealMarket[] = [
  {
    name: 'amzn',
    symbol: 'AMZN',
    folder: 'amzn-2012-06-21-lobster-L5',
    importer: 'lobster',
    importArgs: [
      '--messages',
      '{dir}/AMZN_2012-06-21_34200000_57600000_message_5.csv.gz',
      '--orderbook',
      '{dir}/AMZN_2012-06-21_34200000_57600000_orderbook_5.csv.gz',
      '--date',
      '2012-06-21',
    ],
    // A NASDAQ liquidity rebate of about 0.25 cent/share added and 0.30 cent/share taken, at ~223 USD.
    instrument: { symbol: 'AMZN', tick_size: '0.01', lot_size: '1', min_size: 1, multiplier: '1', maker_fee: '-0.000011', taker_fee: '0.000013' },
    // A round lot, and five of them.
    size: 100,
    maxPosition: 500,
    windows: AMZN_WINDOWS,
  },
  {
    name: 'btcusdt',
    symbol: 'BTCUSDT',
    folder: 'btcusdt-2024-08-08',
    importer: 'tardis',
    importArgs: ['--book', '{dir}/incremental_book_L2.csv.gz', '--trades', '{dir}/trades.csv.gz'],
    // Binance USD-M standard tier: maker 2 bps, taker 5 bps.
    instrument: { symbol: 'BTCUSDT', tick_size: '0.1', lot_size: '0.001', min_size: 1, multiplier: '0.001', maker_fee: '0.0002', taker_fee: '0.0005' },
    // 0.01 BTC (~600 USD) per quote, 0.08 BTC cap: ten minimum orders and eight of them, as before.
    size: 10,
    maxPosition: 80,
    windows: [{ name: 'full', startMs: null, endMs: null }],
  },
];

/** AX's tier-1 schedule (maker 2 bps, taker 25 bps): what the AX rows charge instead of the source's fees. */
export const AX_TIER1_FEES = { maker: 0.0002, taker: 0.0025 } as const;
/**
 * The reward pool the AX rows assume (USD per symbol and day): AX does not publish its pools
 * (docs/venue-rules.md §12); this is the local venue's default pool, an assumption stated as such.
 */
export const AX_ASSUMED_POOL_USD_PER_DAY = 1000;
