import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRecordingWriter, openRecording } from '../../../src/record/index.ts';
import { importLobster, loadInstrumentDef, midnightInZone, openLines, RowIssues, type LobsterImportStats } from '../../../src/record/import/index.ts';

/**
 * A 2012 NASDAQ stock as LOBSTER's sample days are: tick 0.01 USD, one share a contract, and the
 * 2012 rebate (~0.25 cent a share added) and fee (~0.30 cent taken) as fractions of the notional:
 * AMZN (~223 USD) −0.00001 / +0.000013, AAPL (~583 USD) −0.0000043 / +0.0000051; any other stock
 * at its first mid.
 */
const FEES: Readonly<Record<string, { readonly maker: string; readonly taker: string }>> = {
  AMZN: { maker: '-0.00001', taker: '0.000013' },
  AAPL: { maker: '-0.0000043', taker: '0.0000051' },
};
const stockYaml = (symbol: string, firstMidUsd: number): string => {
  const f = FEES[symbol] ?? { maker: (-0.0025 / firstMidUsd).toPrecision(2), taker: (0.003 / firstMidUsd).toPrecision(2) };
  return `symbol: ${symbol}\ntick_size: "0.01"\nlot_size: "1"\nmin_size: 1\nmultiplier: 1\nmaker_fee: "${f.maker}"\ntaker_fee: "${f.taker}"\n`;
};

/** The mid of a LOBSTER order-book file's first row (ask_price_1, ask_size_1, bid_price_1, …; prices in 1/10,000 USD). */
export async function firstMidUsd(path: string): Promise<number> {
  for await (const { text } of openLines(path)) {
    const [ask, , bid] = text.split(',').map(Number);
    if (!(ask! > 0 && bid! > 0 && ask! < 9e9)) throw new Error(`${path}:1: expected a first row with both best prices, got ${JSON.stringify(text.slice(0, 80))}`);
    return (ask! + bid!) / 2 / 10_000;
  }
  throw new Error(`${path}: empty order-book file`);
}

/** A LOBSTER day's files, named as LOBSTER names them (`SYMBOL_YYYY-MM-DD_…_message_N.csv[.gz]`). */
export interface LobsterDay {
  readonly dir: string;
  readonly msg: string;
  readonly book: string;
  readonly symbol: string;
  readonly date: string;
  /** Book levels per side (N). */
  readonly depth: number;
  /** A cache name unique to the day: `amzn-2012-06-21-l5`. */
  readonly key: string;
}

/**
 * Finds the LOBSTER day in `dir` (one `*_message_N.csv[.gz]` and its `*_orderbook_N.csv[.gz]`).
 * @throws Error naming the folder or file that does not look like one.
 */
export function lobsterDay(dir: string): LobsterDay {
  const files = readdirSync(dir);
  const msg = files.find((f) => /_message_\d+\.csv(\.gz)?$/.test(f));
  const book = files.find((f) => /_orderbook_\d+\.csv(\.gz)?$/.test(f));
  if (!msg || !book) throw new Error(`${dir}: expected a LOBSTER *_message_N.csv(.gz) and *_orderbook_N.csv(.gz)`);
  const m = /^([A-Z]+)_(\d{4}-\d{2}-\d{2})_.*_message_(\d+)\.csv/.exec(msg);
  if (!m) throw new Error(`${join(dir, msg)}: expected SYMBOL_YYYY-MM-DD_…_message_N.csv as LOBSTER names its files`);
  const [, symbol, date, depth] = m as unknown as [string, string, string, string];
  return { dir, msg, book, symbol, date, depth: Number(depth), key: `${symbol.toLowerCase()}-${date}-l${depth}` };
}

/**
 * Imports a LOBSTER day as an order-level recording with order ids at `out`, as `mmbot import
 * lobster` does; reuses it (and its stats, kept beside it) when it is newer than the inputs.
 */
export async function importLobsterDay(day: LobsterDay, out: string, work: string, fresh: boolean): Promise<LobsterImportStats> {
  const { dir: dataDir, msg, book, symbol, date } = day;
  const statsFile = `${out}.stats.json`;
  const inputsMs = Math.max(statSync(join(dataDir, msg)).mtimeMs, statSync(join(dataDir, book)).mtimeMs);
  if (!fresh && existsSync(out) && existsSync(statsFile) && statSync(out).mtimeMs >= inputsMs) return JSON.parse(readFileSync(statsFile, 'utf8')) as LobsterImportStats;
  const yaml = join(work, `${day.key}.yaml`);
  writeFileSync(yaml, stockYaml(symbol, FEES[symbol] ? NaN : await firstMidUsd(join(dataDir, book))));
  const def = loadInstrumentDef(yaml);
  let w: ReturnType<typeof createRecordingWriter> | null = null;
  const issues = new RowIssues(false);
  const stats = await importLobster({
    messages: openLines(join(dataDir, msg)),
    orderbook: openLines(join(dataDir, book)),
    def,
    midnightMs: midnightInZone(date, 'America/New_York'),
    feedLatencyMs: 0,
    issues,
    openSink: (startedAtMs) => (w = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source: `lobster:${msg}`, bookLevel: 3, orderIds: true, fees: { [def.instrument.symbol]: { maker: def.fees.maker.toFixed(), taker: def.fees.taker.toFixed() } } })),
  });
  await (w as ReturnType<typeof createRecordingWriter> | null)?.close();
  process.stdout.write(`imported ${msg}: ${stats.books} books, ${stats.trades} prints; bad rows ${JSON.stringify(issues.toJSON())}\n`);
  writeFileSync(statsFile, JSON.stringify(stats));
  return stats;
}

/**
 * Turns an order-level recording into the L2 feed a vendor would sell: the same books aggregated
 * per level (a frame that changed only which orders make up a level is not a change, so it is not
 * written), and the same prints; `keepConditions: false` drops the hidden/cross marks, as a
 * vendor's tape (price, size, aggressor side) does not carry them.
 */
export async function toL2Feed(input: string, out: string, opts: { readonly keepConditions: boolean }): Promise<void> {
  const rec = await openRecording(input);
  const w = createRecordingWriter(out, { instruments: rec.instruments, startedAtMs: rec.header.started_at, source: `l2-of:${rec.header.source}`, ...(rec.header.fees ? { fees: rec.header.fees } : {}) });
  for await (const { event } of rec.events()) {
    if (event.type === 'gap') w.gap(event.symbol, event.tsEvent, event.tsRecv, event.reason);
    else if (event.type === 'trade' && !opts.keepConditions && event.condition !== undefined) {
      const { condition: _dropped, ...plain } = event;
      w.write(plain);
    } else if (event.type === 'book' || event.type === 'trade') w.write(event);
  }
  await w.close();
}
