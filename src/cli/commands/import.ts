import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { createRecordingWriter } from '../../record/index.ts';
import { importLobster, importTardis, type LobsterImportStats, loadInstrumentDef, midnightInZone, openLines, RowIssues, type ClockMode, type ImportSink, type ImportStats } from '../../record/import/index.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { progressBar } from '../progress.ts';

const usage = `usage: mmbot import tardis --book <incremental_book_L2.csv[.gz]> [--trades <trades.csv[.gz]>]
                          --instrument <file.yaml> --out <recording.jsonl.gz>
                          [--depth <levels>] [--clock exchange|local] [--feed-latency-ms <ms>]
                          [--strict] [--json]
       mmbot import lobster --messages <..._message_N.csv> --orderbook <..._orderbook_N.csv>
                          --date YYYY-MM-DD [--tz America/New_York] --instrument <file.yaml>
                          --out <recording.jsonl.gz> [--depth <levels>] [--feed-latency-ms <ms>]
                          [--strict] [--json]

Converts third-party market data into an mmbot recording that \`mmbot backtest\` replays with no venue
(\`bot.strategies[].symbol\` names the instrument file's symbol). Streams: constant memory, gzip in
and out, a progress bar on a terminal.

tardis: Tardis-style CSVs (the format hftbacktest and NautilusTrader read too):
  book   exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount
         (µs timestamps; a run of is_snapshot=true rows is a snapshot; amount 0 deletes a level)
  trades exchange,symbol,timestamp,local_timestamp,id,side,price,amount (side = taker side)

lobster: LOBSTER files, kept order-level (the recording is an L3 one: the backtest replays an exact FIFO)
  messages  time,type,order_id,size,price,direction (time: seconds after midnight of --date in --tz;
            prices in 1/10000 of the currency; types 1 add, 2 partial cancel, 3 delete, 4 visible
            execution, 5 hidden execution, 6 cross trade, 7 halt)
  orderbook ask_price_1,ask_size_1,bid_price_1,bid_size_1,... after each message (checked against)

  --instrument  YAML with symbol, tick_size, lot_size (source quantity per contract, e.g. 0.001),
                min_size (contracts), multiplier, maker_fee, taker_fee (decimal strings)
  --depth       book levels per side written (default 50; the full book is rebuilt regardless)
  --clock       exchange (default): venue time = the exchange's timestamp, receive time = it plus the
                latency jitter local_timestamp shows; local: trust local_timestamp as receive time
  --feed-latency-ms  added to every receive time (default 0)
  --strict      stop at the first bad row (default: count them, report by line number, skip them)
  --json        print the summary as JSON`;

/** The LOBSTER summary line: what a depth-N file settles and the prints that traded no displayed order. */
const lobsterLine = (s: LobsterImportStats): string =>
  `  settled to the file: ${s.reconciledLevels.toLocaleString('en-US')} levels reconciled from the orderbook file (outside its levels before), ${s.unseenOrders.toLocaleString('en-US')} orders older than the file, ${s.replacedOrders.toLocaleString('en-US')} ids never added taken as replaced orders; ` +
  `${s.hiddenTrades.toLocaleString('en-US')} hidden prints (${s.hiddenContracts.toLocaleString('en-US')} contracts, ${s.hiddenOffGrid} between ticks), ${s.crossTrades} cross prints (${s.crossContracts.toLocaleString('en-US')} contracts), ${s.halts} halt message(s)`;

/** `mmbot import`: third-party market data → recording. */
export const command: Command = {
  summary: 'import third-party market data (Tardis CSVs, LOBSTER files) into a recording for backtests',
  usage,
  async run(args) {
    const [format, ...rest] = args;
    if (format !== 'tardis' && format !== 'lobster') throw new MmError('USAGE', `mmbot import: expected a format (tardis or lobster), got ${format === undefined ? 'nothing' : JSON.stringify(format)}`);
    const p = parseArgs(rest, {
      valued: ['book', 'trades', 'messages', 'orderbook', 'date', 'tz', 'instrument', 'out', 'depth', 'clock', 'feed-latency-ms'],
      boolean: ['strict', 'json'],
    });
    const need = (name: string): string => {
      const v = flagString(p, name);
      if (v === undefined) throw new MmError('USAGE', `mmbot import ${format}: --${name} is required`);
      return v;
    };
    const def = loadInstrumentDef(resolve(need('instrument')));
    const out = resolve(need('out'));
    // The output's folder is made now, as backtest and sweep make theirs: not found out after every row was read.
    try {
      mkdirSync(dirname(out), { recursive: true });
    } catch (e) {
      throw new MmError('FILE_NOT_FOUND', `--out ${out}: cannot create its folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file: out });
    }
    const issues = new RowIssues(p.flags.has('strict'));
    const depth = flagInt(p, 'depth', 1, 5000);
    const feedLatencyMs = flagNumber(p, 'feed-latency-ms') ?? 0;
    const bar = progressBar('import');
    const started = Date.now();
    let writer: ReturnType<typeof createRecordingWriter> | null = null;
    const fees = { [def.instrument.symbol]: { maker: def.fees.maker.toFixed(), taker: def.fees.taker.toFixed() } };
    const openSink = (source: string, bookLevel: 2 | 3, orderIds = false) => (startedAtMs: number): ImportSink =>
      (writer = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source, fees, bookLevel, orderIds }));
    let stats: ImportStats;
    let firstInput: string;
    try {
      if (format === 'tardis') {
        const book = openLines(resolve(need('book')));
        const tradesPath = flagString(p, 'trades');
        const trades = tradesPath === undefined ? undefined : openLines(resolve(tradesPath));
        const clock = (flagString(p, 'clock') ?? 'exchange') as ClockMode;
        if (clock !== 'exchange' && clock !== 'local') throw new MmError('USAGE', `--clock must be exchange or local, got "${clock}"`);
        const totalBytes = book.sizeBytes + (trades?.sizeBytes ?? 0);
        firstInput = book.path;
        stats = await importTardis({
          book,
          ...(trades ? { trades } : {}),
          def,
          depth: depth ?? 50,
          clock,
          feedLatencyMs,
          issues,
          openSink: openSink(`tardis:${book.path}`, 2),
          onProgress: (rows) => bar.update(book.bytesRead() + (trades?.bytesRead() ?? 0), totalBytes, `${rows.toLocaleString('en-US')} rows`),
        });
      } else {
        const messages = openLines(resolve(need('messages')));
        const orderbook = openLines(resolve(need('orderbook')));
        const midnightMs = midnightInZone(need('date'), flagString(p, 'tz') ?? 'America/New_York');
        firstInput = messages.path;
        stats = await importLobster({
          messages,
          orderbook,
          def,
          midnightMs,
          ...(depth !== undefined ? { depth } : {}),
          feedLatencyMs,
          issues,
          openSink: openSink(`lobster:${messages.path}`, 3, true),
          onProgress: (rows) => bar.update(messages.bytesRead() + orderbook.bytesRead(), messages.sizeBytes + orderbook.sizeBytes, `${rows.toLocaleString('en-US')} messages`),
        });
      }
    } finally {
      bar.end();
      await (writer as ReturnType<typeof createRecordingWriter> | null)?.close();
    }
    if (writer === null) throw new MmError('RECORDING_INVALID', `${firstInput}: no rows to import`);
    const seconds = (Date.now() - started) / 1000;
    const rows = stats.bookRows + stats.tradeRows;
    const summary = {
      out,
      symbol: def.instrument.symbol,
      ...stats,
      rows_per_s: Math.round(rows / Math.max(seconds, 1e-3)),
      bad_rows: issues.toJSON(),
    };
    if (p.flags.has('json')) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      const span = stats.firstMs !== null && stats.lastMs !== null ? `${new Date(stats.firstMs).toISOString()} → ${new Date(stats.lastMs).toISOString()}` : 'empty';
      process.stdout.write(
        [
          `imported ${def.instrument.symbol} to ${out}: ${span}`,
          `  ${stats.bookRows.toLocaleString('en-US')} book rows → ${stats.books.toLocaleString('en-US')} book events; ${stats.tradeRows.toLocaleString('en-US')} trade rows → ${stats.trades.toLocaleString('en-US')} trades (${stats.tradedContracts.toLocaleString('en-US')} contracts); ${stats.gaps} gap(s)`,
          ...('reconciledLevels' in stats ? [lobsterLine(stats as LobsterImportStats)] : []),
          `  ${summary.rows_per_s.toLocaleString('en-US')} rows/s`,
          issues.total === 0 ? '  no bad rows' : `  ${issues.total} bad row(s), skipped:`,
          ...issues.summary().map((l) => `    ${l}`),
          '',
        ].join('\n'),
      );
    }
    return 0;
  },
};
