import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { createRecordingWriter } from '../../record/index.ts';
import { importDatabento, importLobster, importTardis, loadInstrumentDef, midnightInZone, openDbnFile, openLines, RowIssues, type ClockMode, type ImportSink, type ImportStats, type LobsterImportStats } from '../../record/import/index.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { progressBar } from '../progress.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot import tardis --book <incremental_book_L2.csv[.gz]> [--trades <trades.csv[.gz]>]
                          [--derivative-ticker <derivative_ticker.csv[.gz]>]
                          --instrument <file.yaml> --out <recording.jsonl.gz>
                          [--depth <levels>] [--clock exchange|local] [--feed-latency-ms <ms>]
                          [--strict] [--json]
       mmbot import lobster --messages <..._message_N.csv> --orderbook <..._orderbook_N.csv>
                          --date YYYY-MM-DD [--tz America/New_York] --instrument <file.yaml>
                          --out <recording.jsonl.gz> [--depth <levels>] [--feed-latency-ms <ms>]
                          [--strict] [--json]
       mmbot import databento --mbo <file.dbn[.zst]> | --mbp10 <file.dbn[.zst]> [--trades <file.dbn[.zst]>]
                          [--raw-symbol S] --instrument <file.yaml> --out <recording.jsonl.gz>
                          [--depth <levels>] [--feed-latency-ms <ms>] [--strict] [--json]

Converts third-party market data into an mmbot recording that \`mmbot backtest\` replays with no venue
(\`bot.strategies[].symbol\` names the instrument file's symbol). Streams: constant memory, gzip in
and out, a progress bar on a terminal.

tardis: Tardis-style CSVs (the format hftbacktest and NautilusTrader read too):
  book   exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount
         (µs timestamps; a run of is_snapshot=true rows is a snapshot; amount 0 deletes a level)
  trades exchange,symbol,timestamp,local_timestamp,id,side,price,amount (side = taker side)
  derivative-ticker  exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,
         predicted_funding_rate,open_interest,last_price,index_price,mark_price: tickers (mark, funding
         estimate), index prices, and a funding settlement each time funding_timestamp moves on (the
         last rate announced for it × the last mark before it), so the backtest charges funding
  all three merged by local_timestamp (Tardis's ordering clock)

lobster: LOBSTER files, kept order-level (the recording is an L3 one: the backtest replays an exact FIFO)
  messages  time,type,order_id,size,price,direction (time: seconds after midnight of --date in --tz;
            prices in 1/10000 of the currency; types 1 add, 2 partial cancel, 3 delete, 4 visible
            execution, 5 hidden execution, 6 cross trade, 7 halt)
  orderbook ask_price_1,ask_size_1,bid_price_1,bid_size_1,... after each message (checked against)

databento: Databento DBN files (versions 1-3; .zst needs the npm package fzstd)
  --mbo     market by order: the book is rebuilt order by order (exact FIFO by order id; an order-level
            recording); its trade records are the prints
  --mbp10   top 10 levels per record (an L2 recording); its trade records are the prints
  --trades  the trades schema: the prints (then the book file's trade records are not written);
            alone, a recording of prints only
  --raw-symbol  the symbol to keep (via the file's symbol mappings); default: the file's one instrument
  venue time = ts_event, receive time = ts_recv; bad records are reported by record number

  --instrument  YAML with symbol, tick_size, lot_size (source quantity per contract, e.g. 0.001),
                min_size (contracts), multiplier (required when lot_size is not 1; usually = lot_size), maker_fee, taker_fee (decimal strings)
  --depth       book levels per side written (default 50; the full book is rebuilt regardless)
  --clock       exchange (default): venue time = the exchange's timestamp, receive time = it plus the
                latency jitter local_timestamp shows; local: trust local_timestamp as receive time
  --feed-latency-ms  base receive latency added to every receive time (tardis default: the recorded
                local − exchange difference where the recorder's clock is not behind the exchange's,
                else 0; lobster and databento default 0: databento's ts_recv is the receive time)
  --strict      stop at the first bad row (default: count them, report by line number, skip them)
  --json        print the summary as JSON`;

/** The LOBSTER summary line: what a depth-N file settles and the prints that traded no displayed order. */
const lobsterLine = (s: LobsterImportStats): string =>
  `  settled to the file: ${s.reconciledLevels.toLocaleString('en-US')} levels reconciled from the orderbook file (outside its levels before), ${s.unseenOrders.toLocaleString('en-US')} orders older than the file, ${s.replacedOrders.toLocaleString('en-US')} ids never added taken as replaced orders; ` +
  `${s.settlements.toLocaleString('en-US')} settlements (levels the file changed; ${s.settledKnownOrders.toLocaleString('en-US')} unexplained drops took ${s.settledKnownContracts.toLocaleString('en-US')} contracts off known orders, ${s.settledReordered} of them moving a newer order up the queue; ${s.settledCorrections.toLocaleString('en-US')} later messages of orders a drop had reduced, taken from the level's back); ` +
  `${s.hiddenTrades.toLocaleString('en-US')} hidden prints (${s.hiddenContracts.toLocaleString('en-US')} contracts, ${s.hiddenOffGrid} between ticks), ${s.crossTrades} cross prints (${s.crossContracts.toLocaleString('en-US')} contracts), ${s.halts} halt message(s)`;

/** `mmbot import`: third-party market data → recording. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.import,
  usage,
  async run(args) {
    const [format, ...rest] = args;
    if (format !== 'tardis' && format !== 'lobster' && format !== 'databento') throw new MmError('USAGE', `mmbot import: expected a format (tardis, lobster or databento), got ${format === undefined ? 'nothing' : JSON.stringify(format)}`);
    const p = parseArgs(rest, {
      valued: ['book', 'trades', 'messages', 'orderbook', 'date', 'tz', 'instrument', 'out', 'depth', 'clock', 'feed-latency-ms', 'mbo', 'mbp10', 'raw-symbol', 'derivative-ticker'],
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
    const feedLatencyMs = flagNumber(p, 'feed-latency-ms') ?? null;
    const bar = progressBar('import');
    const started = Date.now();
    let writer: ReturnType<typeof createRecordingWriter> | null = null;
    const fees = { [def.instrument.symbol]: { maker: def.fees.maker.toFixed(), taker: def.fees.taker.toFixed() } };
    const openSink = (source: string, bookLevel: 2 | 3, orderIds = false) => (startedAtMs: number): ImportSink =>
      (writer = createRecordingWriter(out, { instruments: [def.instrument], startedAtMs, source, fees, bookLevel, orderIds }));
    let stats: ImportStats;
    let firstInput: string;
    let succeeded = false;
    try {
      if (format === 'tardis') {
        const book = openLines(resolve(need('book')));
        const tradesPath = flagString(p, 'trades');
        const trades = tradesPath === undefined ? undefined : openLines(resolve(tradesPath));
        const tickerPath = flagString(p, 'derivative-ticker');
        const ticker = tickerPath === undefined ? undefined : openLines(resolve(tickerPath));
        const clock = (flagString(p, 'clock') ?? 'exchange') as ClockMode;
        if (clock !== 'exchange' && clock !== 'local') throw new MmError('USAGE', `--clock must be exchange or local, got "${clock}"`);
        const totalBytes = book.contentBytes + (trades?.contentBytes ?? 0) + (ticker?.contentBytes ?? 0);
        firstInput = book.path;
        stats = await importTardis({
          book,
          ...(trades ? { trades } : {}),
          ...(ticker ? { ticker } : {}),
          def,
          depth: depth ?? 50,
          clock,
          feedLatencyMs,
          issues,
          openSink: openSink(`tardis:${book.path}`, 2),
          onProgress: (rows) => bar.update(book.consumedBytes() + (trades?.consumedBytes() ?? 0) + (ticker?.consumedBytes() ?? 0), totalBytes, `${rows.toLocaleString('en-US')} rows`),
        });
      } else if (format === 'databento') {
        const mboPath = flagString(p, 'mbo');
        const mbp10Path = flagString(p, 'mbp10');
        const tradesPath = flagString(p, 'trades');
        if (mboPath !== undefined && mbp10Path !== undefined) throw new MmError('USAGE', 'mmbot import databento: give --mbo or --mbp10, not both');
        const bookPath = mboPath ?? mbp10Path;
        if (bookPath === undefined && tradesPath === undefined) throw new MmError('USAGE', 'mmbot import databento: --mbo, --mbp10 or --trades is required');
        const bookSrc = bookPath === undefined ? undefined : await openDbnFile(resolve(bookPath));
        const tradesSrc = tradesPath === undefined ? undefined : await openDbnFile(resolve(tradesPath));
        const rawSymbol = flagString(p, 'raw-symbol');
        firstInput = (bookSrc ?? tradesSrc)!.path;
        const total = (bookSrc?.sizeBytes ?? 0) + (tradesSrc?.sizeBytes ?? 0);
        stats = await importDatabento({
          ...(bookSrc ? { book: { kind: mboPath !== undefined ? 'mbo' : 'mbp10', source: bookSrc } } : {}),
          ...(tradesSrc ? { trades: tradesSrc } : {}),
          ...(rawSymbol !== undefined ? { rawSymbol } : {}),
          def,
          depth: depth ?? 50,
          feedLatencyMs: feedLatencyMs ?? 0,
          issues,
          openSink: openSink(`databento:${firstInput}`, mboPath !== undefined ? 3 : 2, mboPath !== undefined),
          onProgress: (n) => bar.update((bookSrc?.bytesRead() ?? 0) + (tradesSrc?.bytesRead() ?? 0), total, `${n.toLocaleString('en-US')} records`),
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
          feedLatencyMs: feedLatencyMs ?? 0,
          issues,
          openSink: openSink(`lobster:${messages.path}`, 3, true),
          onProgress: (rows) => bar.update(messages.consumedBytes() + orderbook.consumedBytes(), messages.contentBytes + orderbook.contentBytes, `${rows.toLocaleString('en-US')} messages`),
        });
      }
      succeeded = true;
    } finally {
      bar.end();
      // Only a complete import replaces --out: a failed one removes its temporary file, so a
      // previous recording at --out stays byte-identical (a gzip closed cleanly on half the rows
      // would pass as a whole recording and give a silently wrong backtest).
      const w = writer as ReturnType<typeof createRecordingWriter> | null;
      if (succeeded) await w?.close();
      else await w?.abort?.();
    }
    if (writer === null) throw new MmError('RECORDING_INVALID', `${firstInput}: no rows to import`);
    const skipped = 'skippedBeforeSnapshot' in stats ? (stats.skippedBeforeSnapshot as number) : 0;
    const seconds = (Date.now() - started) / 1000;
    const rows = stats.bookRows + stats.tradeRows;
    const summary = {
      out,
      symbol: def.instrument.symbol,
      ...stats,
      rows_per_s: Math.round(rows / Math.max(seconds, 1e-3)),
      bad_rows: issues.badRows(),
      expected_rows: issues.expectedRows(),
    };
    if (p.flags.has('json')) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      const span = stats.firstMs !== null && stats.lastMs !== null ? `${new Date(stats.firstMs).toISOString()} → ${new Date(stats.lastMs).toISOString()}` : 'empty';
      process.stdout.write(
        [
          `imported ${def.instrument.symbol} to ${out}: ${span}`,
          `  ${stats.bookRows.toLocaleString('en-US')} book rows → ${stats.books.toLocaleString('en-US')} book events; ${stats.tradeRows.toLocaleString('en-US')} trade rows → ${stats.trades.toLocaleString('en-US')} trades (${stats.tradedContracts.toLocaleString('en-US')} contracts); ${stats.gaps} gap(s)`,
          ...(skipped > 0 ? [`  ${skipped.toLocaleString('en-US')} level update(s) before the first snapshot skipped`] : []),
          ...('reconciledLevels' in stats ? [lobsterLine(stats as LobsterImportStats)] : []),
          `  ${summary.rows_per_s.toLocaleString('en-US')} rows/s`,
          issues.total === 0 ? '  no bad rows' : `  ${issues.total} bad row(s), skipped:`,
          ...issues.summary().map((l) => `    ${l}`),
          ...(issues.noted > 0 ? [`  ${issues.noted} expected row(s), information, not errors:`, ...issues.notes().map((l) => `    ${l}`)] : []),
          '',
        ].join('\n'),
      );
    }
    return 0;
  },
};
