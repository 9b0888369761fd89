import { resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { createRecordingWriter } from '../../record/index.ts';
import { importTardis, loadInstrumentDef, openLines, RowIssues, type ClockMode, type ImportStats } from '../../record/import/index.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { progressBar } from '../progress.ts';

const usage = `usage: mmbot import tardis --book <incremental_book_L2.csv[.gz]> [--trades <trades.csv[.gz]>]
                          --instrument <file.yaml> --out <recording.jsonl.gz>
                          [--depth <levels>] [--clock exchange|local] [--feed-latency-ms <ms>]
                          [--strict] [--json]

Converts third-party market data into an mmbot recording that \`mmbot backtest\` replays with no venue
(\`bot.strategies[].symbol\` names the instrument file's symbol). Streams: constant memory, gzip in
and out, a progress bar on a terminal.

tardis: Tardis-style CSVs (the format hftbacktest and NautilusTrader read too):
  book   exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount
         (µs timestamps; a run of is_snapshot=true rows is a snapshot; amount 0 deletes a level)
  trades exchange,symbol,timestamp,local_timestamp,id,side,price,amount (side = taker side)

  --instrument  YAML with symbol, tick_size, lot_size (source quantity per contract, e.g. 0.001),
                min_size (contracts), multiplier, maker_fee, taker_fee (decimal strings)
  --depth       book levels per side written (default 50; the full book is rebuilt regardless)
  --clock       exchange (default): venue time = the exchange's timestamp, receive time = it plus the
                latency jitter local_timestamp shows; local: trust local_timestamp as receive time
  --feed-latency-ms  added to every receive time (default 0)
  --strict      stop at the first bad row (default: count them, report by line number, skip them)
  --json        print the summary as JSON`;

/** `mmbot import`: third-party market data → recording. */
export const command: Command = {
  summary: 'import third-party market data (Tardis CSVs) into a recording for backtests',
  usage,
  async run(args) {
    const [format, ...rest] = args;
    if (format !== 'tardis') throw new MmError('USAGE', `mmbot import: expected a format (tardis), got ${format === undefined ? 'nothing' : JSON.stringify(format)}`);
    const p = parseArgs(rest, { valued: ['book', 'trades', 'instrument', 'out', 'depth', 'clock', 'feed-latency-ms'], boolean: ['strict', 'json'] });
    const need = (name: string): string => {
      const v = flagString(p, name);
      if (v === undefined) throw new MmError('USAGE', `mmbot import tardis: --${name} is required`);
      return v;
    };
    const def = loadInstrumentDef(resolve(need('instrument')));
    const book = openLines(resolve(need('book')));
    const tradesPath = flagString(p, 'trades');
    const trades = tradesPath === undefined ? undefined : openLines(resolve(tradesPath));
    const out = resolve(need('out'));
    const clock = (flagString(p, 'clock') ?? 'exchange') as ClockMode;
    if (clock !== 'exchange' && clock !== 'local') throw new MmError('USAGE', `--clock must be exchange or local, got "${clock}"`);
    const issues = new RowIssues(p.flags.has('strict'));
    const bar = progressBar('import');
    const totalBytes = book.sizeBytes + (trades?.sizeBytes ?? 0);
    const started = Date.now();
    let writer: ReturnType<typeof createRecordingWriter> | null = null;
    let stats: ImportStats;
    try {
      stats = await importTardis({
        book,
        ...(trades ? { trades } : {}),
        def,
        depth: flagInt(p, 'depth', 1, 5000) ?? 50,
        clock,
        feedLatencyMs: flagNumber(p, 'feed-latency-ms') ?? 0,
        issues,
        openSink: (startedAtMs) => {
          writer = createRecordingWriter(out, {
            instruments: [def.instrument],
            startedAtMs,
            source: `tardis:${book.path}`,
            fees: { [def.instrument.symbol]: { maker: def.fees.maker.toFixed(), taker: def.fees.taker.toFixed() } },
          });
          return writer;
        },
        onProgress: (rows) => bar.update(book.bytesRead() + (trades?.bytesRead() ?? 0), totalBytes, `${rows.toLocaleString('en-US')} rows`),
      });
    } finally {
      bar.end();
      await (writer as ReturnType<typeof createRecordingWriter> | null)?.close();
    }
    if (writer === null) throw new MmError('RECORDING_INVALID', `${book.path}: no rows to import`);
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
