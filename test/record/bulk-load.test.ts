import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { MmError } from '../../src/core/errors.ts';
import { decodeFiles } from '../../src/record/bulk-load.ts';
import { ColumnarBuilder, createRecordingWriter, loadColumnar, openRecording, readRecording, recordingHeader, type ColumnarRecording } from '../../src/record/index.ts';
import { testInstrument } from './fixtures.ts';

// The bulk loader (`loadColumnar`: bytes split into lines, book and trade lines scanned straight
// into columns, every other line through the full decoder) against the path it replaced: each
// file's `openRecording(...).events()` pushed into a ColumnarBuilder, files joined by a gap marker.
// Every recording the fixtures make (the importers' outputs of every fixture under test/fixtures,
// the sample, synthetic markets) must give the same columns, and every bad line the same error.

const ROOT = resolve(import.meta.dirname, '../..');
const FIX = join(ROOT, 'test/fixtures');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-bulk-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 90_000, killSignal: 'SIGKILL' });
const S = 'EURUSD-PERP';

/** The replaced loader, verbatim: the reference for columns and errors. */
async function referenceLoad(paths: readonly string[]): Promise<ColumnarRecording> {
  const b = new ColumnarBuilder();
  let lastRecv = -Infinity;
  for (const path of paths) {
    const rec = await openRecording(path);
    b.addHeader(rec.header, rec.instruments);
    let first = true;
    for await (const batch of rec.eventBatches())
      for (const { line, event } of batch) {
        if (first && lastRecv > -Infinity) b.push({ type: 'gap', symbol: null, tsEvent: lastRecv, tsRecv: Math.max(lastRecv, event.tsRecv), reason: 'file boundary' });
        first = false;
        if (event.tsRecv < lastRecv)
          throw new MmError('RECORDING_INVALID', `${path}:${line}: receive time ${event.tsRecv} is before the previous file's last event (${lastRecv}); pass recordings in time order`, { file: path, line });
        lastRecv = event.tsRecv;
        b.push(event);
      }
  }
  return b.build();
}

async function counts(paths: readonly string[]): Promise<{ scannedLines: number; decodedLines: number }> {
  return decodeFiles(paths, new ColumnarBuilder());
}

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return { code: e instanceof MmError ? e.code : 'not an MmError', message: e instanceof Error ? e.message : String(e) };
  }
  return { code: 'none', message: 'no error' };
}

function writeSynthetic(name: string, events: number, startMs: number, seed = 7): Promise<string> {
  const inst = testInstrument(S, '0.0001', 1);
  const path = join(dir, name);
  const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: startMs, source: 'synthetic' });
  for (const ev of syntheticMarket({ instrument: inst, seed, events, startMs, midTicks: 11380, levels: 20, meanGapMs: 0.5, tickerEveryMs: 1000, fundingAtMs: startMs + 5_000 })) w.write(ev);
  return w.close().then(() => path);
}

const textOf = (path: string): string => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf-8');

/** A copy of `path` with line `n` (1-based) replaced by `edit(line)`. */
function withLine(path: string, name: string, n: number, edit: (line: string) => string): string {
  const lines = textOf(path).split('\n');
  lines[n - 1] = edit(lines[n - 1]!);
  const out = join(dir, name);
  writeFileSync(out, name.endsWith('.gz') ? gzipSync(lines.join('\n')) : lines.join('\n'));
  return out;
}

/** The 1-based number of the first line at or after `from` whose text starts with `prefix`. */
function lineStarting(path: string, prefix: string, from: number): number {
  const lines = textOf(path).split('\n');
  for (let i = from - 1; i < lines.length; i++) if (lines[i]!.startsWith(prefix)) return i + 1;
  throw new Error(`no line starting ${prefix}`);
}

const rec: Record<string, string> = {};

beforeAll(async () => {
  // The importers' outputs of every fixture: L2 (Tardis), order-level with ids (LOBSTER, Databento),
  // imported side by side (each is its own process).
  rec['tardis'] = join(dir, 'btc.jsonl.gz');
  rec['lobster-aapl'] = join(dir, 'aapl.jsonl.gz');
  rec['lobster-amzn'] = join(dir, 'amzn.jsonl.gz');
  rec['lobster-amzn-slice'] = join(dir, 'amzn-slice.jsonl.gz');
  rec['databento'] = join(dir, 'mbo.jsonl.gz');
  const yaml = join(dir, 'test.yaml');
  writeFileSync(yaml, 'symbol: TEST\ntick_size: "0.01"\nlot_size: "1"\nmin_size: 1\nmultiplier: "1"\nmaker_fee: "0.0001"\ntaker_fee: "0.0003"\n');
  await Promise.all([
    mmbot(['import', 'tardis', '--book', join(FIX, 'tardis/btcusdt-book-30s.csv.gz'), '--trades', join(FIX, 'tardis/btcusdt-trades-30s.csv.gz'), '--instrument', join(FIX, 'tardis/btcusdt.yaml'), '--out', rec['tardis']]),
    mmbot(['import', 'lobster', '--messages', join(FIX, 'lobster/AAPL_2012-06-21_34200000_57600000_message_2.csv'), '--orderbook', join(FIX, 'lobster/AAPL_2012-06-21_34200000_57600000_orderbook_2.csv'), '--date', '2012-06-21', '--instrument', join(FIX, 'lobster/aapl.yaml'), '--out', rec['lobster-aapl']]),
    mmbot(['import', 'lobster', '--messages', join(FIX, 'lobster/amzn/AMZN_2012-06-21_first-6000_message_5.csv.gz'), '--orderbook', join(FIX, 'lobster/amzn/AMZN_2012-06-21_first-6000_orderbook_5.csv.gz'), '--date', '2012-06-21', '--instrument', join(FIX, 'lobster/amzn/amzn.yaml'), '--out', rec['lobster-amzn']]),
    mmbot(['import', 'lobster', '--messages', join(FIX, 'lobster/amzn/AMZN_2012-06-21_slice_message_5.csv.gz'), '--orderbook', join(FIX, 'lobster/amzn/AMZN_2012-06-21_slice_orderbook_5.csv.gz'), '--date', '2012-06-21', '--instrument', join(FIX, 'lobster/amzn/amzn.yaml'), '--out', rec['lobster-amzn-slice']]),
    mmbot(['import', 'databento', '--mbo', join(FIX, 'databento/session.mbo.dbn.zst'), '--instrument', yaml, '--out', rec['databento']]),
  ]);
  // Order-level without ids (version 4): the AAPL import with its ids dropped.
  const aapl = await readRecording(rec['lobster-aapl']);
  rec['lobster-aapl-v4'] = join(dir, 'aapl-v4.jsonl.gz');
  const w = createRecordingWriter(rec['lobster-aapl-v4'], { instruments: aapl.instruments, startedAtMs: aapl.header.started_at, source: 'v4', bookLevel: 3 });
  const bare = (side: readonly { priceTicks: number; qty: number; orders?: readonly number[] }[]) => side.map((l) => ({ priceTicks: l.priceTicks, qty: l.qty, orders: l.orders ?? [] }));
  for (const ev of aapl.events) w.write(ev.type === 'book' ? { ...ev, bids: bare(ev.bids), asks: bare(ev.asks) } : ev);
  await w.close();
  rec['sample'] = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
  rec['synthetic'] = await writeSynthetic('synthetic.jsonl.gz', 40_000, 1_767_225_600_000);
  rec['synthetic-later'] = await writeSynthetic('synthetic-later.jsonl.gz', 5_000, 1_767_225_700_000, 8);
}, 180_000);

describe('bulk loader ≡ the line-at-a-time loader', () => {
  it('covers every fixture recording and the recordings the fixtures import to', () => {
    const inFixtures: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (f.endsWith('.jsonl.gz') || f.endsWith('.jsonl')) inFixtures.push(p);
      }
    };
    walk(FIX);
    // No recording is stored under test/fixtures today; one added there must be listed here.
    expect(inFixtures.filter((p) => !Object.values(rec).includes(p))).toEqual([]);
    expect(Object.keys(rec)).toHaveLength(9);
  });

  for (const name of ['tardis', 'lobster-aapl', 'lobster-amzn', 'lobster-amzn-slice', 'databento', 'lobster-aapl-v4', 'sample', 'synthetic']) {
    it(`${name}: the same columns, objects and session`, async () => {
      const got = await loadColumnar([rec[name]!]);
      expect(got).toStrictEqual(await referenceLoad([rec[name]!]));
    });
  }

  it('the sidecar written on the first load reads back to the same columns (L2 and order-level with ids)', async () => {
    const cacheDir = join(dir, 'cache');
    for (const name of ['synthetic', 'lobster-aapl']) {
      const ref = await referenceLoad([rec[name]!]);
      expect(await loadColumnar([rec[name]!], { cacheDir })).toStrictEqual(ref);
      expect(readdirSync(cacheDir).filter((f) => f.endsWith('.mmbc'))).toHaveLength(name === 'synthetic' ? 1 : 2);
      expect(await loadColumnar([rec[name]!], { cacheDir })).toStrictEqual(ref);
    }
  });

  it('the scanner takes every book and trade line but the first event line; the full decoder the rest', async () => {
    // sample: 921 books + 1,043 trades, 49 tickers, 1 funding; the first event line is a ticker.
    expect(await counts([rec['sample']!])).toEqual({ scannedLines: 1964, decodedLines: 50 });
    // AAPL: 1,675 books + 611 trades + 3 gaps; the first event line (a book) is decoded.
    expect(await counts([rec['lobster-aapl']!])).toEqual({ scannedLines: 2285, decodedLines: 4 });
    expect(await counts([rec['lobster-aapl-v4']!])).toEqual({ scannedLines: 2285, decodedLines: 4 });
  });

  it('several files: the same columns with the gap marker between, and a file out of time order named', async () => {
    const both = [rec['synthetic']!, rec['synthetic-later']!];
    expect(await loadColumnar(both)).toStrictEqual(await referenceLoad(both));
    const backwards = [rec['synthetic-later']!, rec['synthetic']!];
    const err = await errorOf(loadColumnar(backwards));
    expect(err).toEqual(await errorOf(referenceLoad(backwards)));
    expect(err.message).toMatch(/synthetic\.jsonl\.gz:2: receive time .* is before the previous file's last event/);
  });

  it('lines in other shapes (whitespace, key order, escapes, exponents, -0, extra and repeated keys, long decimals, CRLF, empty lines, every event type) decode the same', async () => {
    const header = JSON.stringify(recordingHeader({ instruments: [testInstrument()], startedAtMs: 1000, source: 'shapes' }));
    const lines = [
      header,
      `{"t":"b","s":"${S}","e":1000,"r":1001,"f":1,"b":[[11379,5],[11378,3]],"a":[[11381,4]]}`,
      `{"t":"b","s":"${S}","e":1000,"r":1001,"f":1,"b":[[11379,5],[11378,3]],"a":[[11381,4]]}`,
      `{"t":"t","s":"${S}","e":1000.5,"r":1001.25,"p":11381,"q":2,"d":"B"}`,
      `{"t":"t","s":"${S}","e":1001,"r":1002,"p":11381,"q":2,"d":"S","c":"h"}\r`,
      '',
      `{"t":"t","s":"${S}","e":1001,"r":1002,"p":-0,"q":1,"d":"B","c":"x"}`,
      `{ "t":"b","s":"${S}","e":1002,"r":1003,"f":0,"b":[],"a":[[11381,0]]}`,
      `{"s":"${S}","t":"b","e":1002,"r":1003,"f":0,"b":[[11379,6]],"a":[]}`,
      `{"t":"b","s":"EURUSD\\u002dPERP","e":1003,"r":1004,"f":0,"b":[[11379,7]],"a":[]}`,
      `{"t":"t","s":"${S}","e":1.004e3,"r":1004,"p":1e4,"q":1,"d":"B"}`,
      `{"t":"b","s":"${S}","e":1004,"r":1005,"f":0,"b":[[-0,0]],"a":[[11382,-0]]}`,
      `{"t":"t","s":"${S}","e":1005,"r":1005,"p":11380,"q":1,"d":"B","x":1}`,
      `{"t":"t","s":"${S}","e":1005,"r":1005,"p":11380,"q":1,"d":"B","d":"S"}`,
      `{"t":"t","s":"${S}","e":-0.5,"r":1005.12345678901234567,"p":11380,"q":1,"d":"B"} `,
      `{"t":"t","s":"${S}","e":0.1,"r":1006.0000000000001,"p":11380,"q":123456789012345,"d":"S"}`,
      `{"t":"k","s":"${S}","e":1007,"r":1007,"last":11380,"lq":1,"mark":11380,"bid":11379,"ask":11381,"bl":null,"bu":null,"lsp":null,"lst":null,"st":"OPEN","v":10,"oi":5,"ef":null}`,
      `{"t":"p","s":"${S}","e":1008,"r":1008,"src":"index","p":11381.25}`,
      `{"t":"o","s":"${S}","e":1009,"r":1009,"b":[[11379,5]],"a":[]}`,
      `{"t":"q","s":null,"e":1010,"r":1010,"op":"place","ms":1.5,"ok":1}`,
      `{"t":"x","s":"${S}","e":1011,"r":1011,"k":"fil","oid":"O-1","d":"B","p":11379,"q":5,"fp":11379,"fq":5,"l":"M","tid":"T1"}`,
      `{"t":"g","s":null,"e":1012,"r":1012,"why":"reconnect"}`,
      `{"t":"b","s":"${S}","e":1700000000003.0068,"r":1700000000005.4348,"f":1,"b":[[11379,5]],"a":[[11381,4]]}`,
      `{"t":"t","s":"${S}","e":1700000000585.5088,"r":1700000000586.8276,"p":11371,"q":3,"d":"S"}`,
      `{"t":"t","s":"${S}","e":1700000000585.5,"r":1700000000586.99999999,"p":11371,"q":3,"d":"S"}`,
      `{"t":"t","s":"${S}","e":1700000000586,"r":1700000000587,"p":11371,"q":3,"d":"S"}\r`,
    ];
    const plain = join(dir, 'shapes.jsonl');
    writeFileSync(plain, `${lines.join('\n')}`); // the last line has no line end (and keeps its CR)
    const gz = join(dir, 'shapes.jsonl.gz');
    writeFileSync(gz, gzipSync(`${lines.join('\r\n')}\r\n`));
    for (const p of [plain, gz]) {
      const ref = await referenceLoad([p]);
      expect(ref.length).toBe(22);
      expect(await loadColumnar([p])).toStrictEqual(ref);
    }
    expect(await counts([plain])).toEqual({ scannedLines: 8, decodedLines: 16 });
  });
});

describe('bulk loader errors: the same error, naming the file and line, as the line-at-a-time loader', () => {
  const cases: { name: string; file: string; prefix: string; edit: (l: string) => string; expect: RegExp }[] = [
    { name: 'trade qty 0', file: 'synthetic', prefix: '{"t":"t"', edit: (l) => l.replace(/"q":\d+/, '"q":0'), expect: /q: expected a positive quantity, got 0$/ },
    { name: 'fractional trade price', file: 'synthetic', prefix: '{"t":"t"', edit: (l) => l.replace(/"p":(\d+)/, '"p":$1.5'), expect: /p: expected an integer, got \d+\.5$/ },
    { name: 'unsafe integer price', file: 'synthetic', prefix: '{"t":"t"', edit: (l) => l.replace(/"p":\d+/, '"p":9007199254740993'), expect: /p: expected an integer, got 9007199254740992$/ },
    { name: 'bad aggressor', file: 'synthetic', prefix: '{"t":"t"', edit: (l) => l.replace('"d":"', '"d":"X'), expect: /d: expected "B" or "S"/ },
    { name: 'unknown symbol', file: 'synthetic', prefix: '{"t":"b"', edit: (l) => l.replace(S, 'XYZ'), expect: /s: symbol "XYZ" is not in the header$/ },
    { name: 'snapshot flag 2', file: 'synthetic', prefix: '{"t":"b"', edit: (l) => l.replace('"f":0', '"f":2'), expect: /f: expected 0 or 1, got 2$/ },
    { name: 'negative level qty', file: 'synthetic', prefix: '{"t":"b","s":"EURUSD-PERP","e"', edit: (l) => l.replace(/\[\[(\d+),\d+\]/, '[[$1,-1]'), expect: /expected \[priceTicks, qty\]/ },
    { name: 'one price twice in a book', file: 'synthetic', prefix: '{"t":"b","s":"EURUSD-PERP","e"', edit: (l) => l.replace(/\[\[(\d+),(\d+)\]/, '[[$1,0],[$1,$2]'), expect: /\[1\]: price \d+ is listed twice in one book \([ab]\[0\] too\); a book gives each price once per side$/ },
    { name: 'receive time back', file: 'synthetic', prefix: '{"t":"b"', edit: (l) => l.replace(/"r":[\d.]+/, '"r":5'), expect: /receive time r=5 goes back \(previous / },
    { name: 'cut line', file: 'synthetic', prefix: '{"t":"b"', edit: (l) => l.slice(0, 30), expect: /not JSON \(/ },
    { name: 'order list in an L2 file', file: 'synthetic', prefix: '{"t":"b"', edit: (l) => l.replace(/\[\[(\d+),(\d+)\]/, '[[$1,1,[1]]'), expect: /a level carries an order list, but the header does not say book_level 3$/ },
    { name: 'order sizes off the level qty', file: 'lobster-aapl', prefix: '{"t":"b"', edit: (l) => l.replace(/\[\[(\d+),(\d+),\[/, '[[$1,$2,[1,'), expect: /order sizes add up to \d+, not the level's qty \d+$/ },
    { name: 'ids missing', file: 'lobster-aapl', prefix: '{"t":"b","s":"AAPL","e":1340285400682.98,"r":1340285400682.98,"f":0,"b":[]', edit: (l) => l.replace(/,\[-?\d+\]\]\]\}$/, ']]}'), expect: /order-level recording with order ids: level \d+ has no ids/ },
    { name: 'bare level in an order-level file', file: 'lobster-aapl-v4', prefix: '{"t":"b"', edit: (l) => l.replace(/"a":\[\[(\d+),(\d+),\[[\d,]*\]\]/, '"a":[[$1,$2]'), expect: /order-level recording: level \d+ has no order list/ },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const src = rec[c.file]!;
      const n = lineStarting(src, c.prefix, c.file === 'synthetic' ? 30_000 : 3);
      const bad = withLine(src, `bad-${c.name.replaceAll(' ', '-')}.jsonl.gz`, n, c.edit);
      const want = await errorOf(referenceLoad([bad]));
      expect(want.message).toMatch(c.expect);
      expect(want.message.startsWith(`${bad}:${n}: `)).toBe(true);
      expect(await errorOf(loadColumnar([bad]))).toEqual(want);
    });
});

describe('bulk loader: damaged gzip gives the same error as the line-at-a-time loader', () => {
  const damage: Record<string, (aapl: Buffer, synthetic: Buffer) => Buffer> = {
    'cut in half': (a) => a.subarray(0, Math.floor(a.length / 2)),
    'cut at 70 % (past many chunks of text)': (_, s) => s.subarray(0, Math.floor(s.length * 0.7)),
    'not gzip': () => Buffer.from('hello\n'),
    empty: () => Buffer.alloc(0),
    'a flipped byte': (a) => Buffer.from(a.map((b, i) => (i === 5000 ? b ^ 0xff : b))),
    'trailing garbage': (a) => Buffer.concat([a, Buffer.from('garbage')]),
    'two gzip members (a second header line)': (a) => Buffer.concat([a, a]),
  };
  for (const [name, make] of Object.entries(damage))
    it(name, async () => {
      const p = join(dir, `damaged-${name.replaceAll(' ', '-')}.jsonl.gz`);
      writeFileSync(p, make(readFileSync(rec['lobster-aapl']!), readFileSync(rec['synthetic']!)));
      const want = await errorOf(referenceLoad([p]));
      expect(want.code).toBe('RECORDING_INVALID');
      expect(await errorOf(loadColumnar([p]))).toEqual(want);
    });
});
