/**
 * `mmbot record --local` on the virtual clock: a seed reproduces the recording byte for byte, the
 * recording backtests, and it agrees with a wall-clock recording over real sockets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { command as backtest } from '../../src/cli/commands/backtest.ts';
import { command as record } from '../../src/cli/commands/record.ts';
import { MmError } from '../../src/core/errors.ts';
import { readRecording, type LoadedRecording } from '../../src/record/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-vrec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `mmbot record` with stderr captured. */
async function run(args: readonly string[]): Promise<string> {
  let err = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  try {
    expect(await record.run([...args])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return err;
}

const local = (seed: number, out: string, extra: readonly string[] = []): string[] => [
  '--local', '--preset', 'normal', '--seed', String(seed), '--clock-speed', '60', '--symbols', 'EURUSD-PERP', '--duration', '120', '--out', out, ...extra,
];

/** Events per kind (`book`, `snapshot`, `trade`, `ticker`, `price`, ...). */
function kinds(r: LoadedRecording): Record<string, number> {
  const n: Record<string, number> = {};
  for (const e of r.events) {
    const k = e.type === 'book' ? (e.isSnapshot ? 'snapshot' : 'book') : e.type;
    n[k] = (n[k] ?? 0) + 1;
  }
  return n;
}

/** Lowest and highest mid (ticks) of `symbol`'s books (deltas applied) between `from` and `to` (venue ms). */
function midRange(r: LoadedRecording, symbol: string, from = -Infinity, to = Infinity): [number, number] {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  let lo = Infinity;
  let hi = -Infinity;
  for (const e of r.events) {
    if (e.type !== 'book' || e.symbol !== symbol) continue;
    if (e.isSnapshot) {
      bids.clear();
      asks.clear();
    }
    for (const [side, levels] of [[bids, e.bids], [asks, e.asks]] as const) {
      for (const l of levels) {
        if (l.qty === 0) side.delete(l.priceTicks);
        else side.set(l.priceTicks, l.qty);
      }
    }
    if (e.tsEvent < from || e.tsEvent > to || bids.size === 0 || asks.size === 0) continue;
    const mid = (Math.max(...bids.keys()) + Math.min(...asks.keys())) / 2;
    lo = Math.min(lo, mid);
    hi = Math.max(hi, mid);
  }
  return [lo, hi];
}

describe('mmbot record --local (virtual clock)', () => {
  const a = join(dir, 'a.jsonl.gz');
  const b = join(dir, 'b.jsonl.gz');
  const other = join(dir, 'seed12.jsonl.gz');

  it('records the same bytes twice from one seed, and other bytes from another seed', async () => {
    const said = await run(local(11, a));
    await run(local(11, b));
    await run(local(12, other));
    expect(said).toMatch(/seed 11, 60×, virtual clock/);
    expect(said).toMatch(/wrote \d+ events .* venue minutes per second/);
    const bytesA = readFileSync(a);
    expect(bytesA.equals(readFileSync(b))).toBe(true);
    expect(bytesA.equals(readFileSync(other))).toBe(false);
    // gzip header: no mtime (bytes 4-7), OS pinned to Unix (byte 9), so bytes do not depend on when or where.
    expect([...bytesA.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(bytesA[9]).toBe(3);
    const ra = await readRecording(a);
    const ro = await readRecording(other);
    expect(ra.header.source).toBe('local-venue preset=normal seed=11 clock_speed=60 virtual-clock');
    expect(ra.header.started_at).toBe(Date.UTC(2026, 10, 16, 12));
    const trades = (r: LoadedRecording): string => JSON.stringify(r.events.filter((e) => e.type === 'trade'));
    expect(trades(ra)).not.toBe(trades(ro));
    const k = kinds(ra);
    expect(k['snapshot']).toBe(1);
    expect(k['book']).toBeGreaterThan(100);
    expect(k['trade']).toBeGreaterThan(5);
    expect(k['ticker']).toBeGreaterThan(0);
    expect(k['price']).toBeGreaterThan(0);
    expect(k['gap'] ?? 0).toBe(0);
    // Receive times never go back, and nothing is received before it happened.
    let last = -Infinity;
    for (const e of ra.events) {
      expect(e.tsRecv).toBeGreaterThanOrEqual(last);
      expect(e.tsRecv).toBeGreaterThanOrEqual(e.tsEvent);
      last = e.tsRecv;
    }
  });

  it("records a symbol's data the same whichever other symbols are recorded with it", async () => {
    const both = join(dir, 'both.jsonl.gz');
    const args = local(11, both);
    args[args.indexOf('EURUSD-PERP')] = 'XAU-PERP,EURUSD-PERP';
    await run(args);
    const eur = async (path: string): Promise<string> =>
      JSON.stringify((await readRecording(path)).events.filter((e) => 'symbol' in e && e.symbol === 'EURUSD-PERP'));
    expect(await eur(both)).toBe(await eur(a));
  });

  it('backtests end to end with fixed-spread', async () => {
    const out = join(dir, 'bt');
    let printed = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    });
    try {
      expect(await backtest.run(['--config', resolve('config/backtest-one-tick.yaml'), '--data', a, '--out', out, '--no-cache'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { events: unknown; total: { fills: { count: number; maker: number } } };
    expect(report.total.fills.count, printed).toBeGreaterThan(0);
    expect(report.total.fills.maker).toBeGreaterThan(0);
    expect(printed).toMatch(/replayed \d+ events \(120 s of market\)/);
  });

  it('agrees with a wall-clock recording over real sockets on format and statistics', async () => {
    // 20×: slow enough that a loaded machine keeps up with the wall-clock venue. The socket
    // recording starts once its client is connected (some venue seconds in) and covers 80 venue
    // s; the virtual one covers the first 160, so the statistics are compared on the socket's span.
    // The two are different draws of one market (the flow's random draws are consumed in an order
    // that depends on timing), so counts agree statistically, not exactly.
    const virt = join(dir, 'virt20.jsonl.gz');
    const wall = join(dir, 'wall20.jsonl.gz');
    const at20 = (out: string, durationS: number, extra: readonly string[] = []): string[] => [
      '--local', '--preset', 'normal', '--seed', '11', '--clock-speed', '20', '--symbols', 'EURUSD-PERP,XAU-PERP', '--duration', String(durationS), '--out', out, ...extra,
    ];
    await run(at20(virt, 160));
    await run(at20(wall, 80, ['--wall-clock', '--start', '2026-11-16T12:00:00Z']));
    const v = await readRecording(virt);
    const w = await readRecording(wall);
    expect(w.header.version).toBe(v.header.version);
    expect(w.header.symbols).toEqual(v.header.symbols);
    expect(w.header.instruments).toEqual(v.header.instruments);
    expect(w.header.source).toBe('local-venue preset=normal seed=11 clock_speed=20 wall-clock');
    expect(Object.keys(kinds(w)).sort()).toEqual(Object.keys(kinds(v)).sort());
    const from = w.events[0]!.tsEvent;
    const to = w.events.at(-1)!.tsEvent;
    expect(to - from).toBeGreaterThan(60_000);
    expect(to).toBeLessThan(v.events.at(-1)!.tsEvent);
    const span = (r: LoadedRecording): LoadedRecording => ({ ...r, events: r.events.filter((e) => e.tsEvent >= from && e.tsEvent <= to) });
    const kv = kinds(span(v));
    const kw = kinds(span(w));
    // Same seed, same start: the same market, timed differently. At 2× the two paths agree within
    // a few percent on every count (src/app/virtual-venue/README.md); at 20× the wall clock's late
    // timers on a loaded machine leave makers' quotes stale longer (more trades, ~1.35× here) and
    // merge book changes into fewer frames, hence the wide bounds: they catch lost or doubled
    // events, not timing.
    const counts = JSON.stringify({ virtual: kv, wall: kw });
    expect(kw['trade']!, counts).toBeGreaterThanOrEqual(Math.floor(kv['trade']! * 0.5) - 3);
    expect(kw['trade']!, counts).toBeLessThanOrEqual(Math.ceil(kv['trade']! * 1.8) + 3);
    // Book frames: a loaded machine merges more changes into each frame (a CI run saw 0.35× the
    // virtual count), so their number says little about loss. A lost frame breaks the book's
    // sequence and the client resyncs with a fresh snapshot (a dropped socket also writes a gap);
    // a doubled one pushes the count up.
    expect(kw['gap'] ?? 0, counts).toBe(0);
    expect(kw['snapshot'] ?? 0, counts).toBe(2);
    expect(kw['book']!, counts).toBeGreaterThan(0);
    expect(kw['book']!, counts).toBeLessThan(kv['book']! * 1.3);
    expect(kw['ticker'] ?? 0).toBeGreaterThan(0);
    expect(kv['ticker'] ?? 0).toBeGreaterThan(0);
    const [vlo, vhi] = midRange(v, 'EURUSD-PERP', from, to);
    const [wlo, whi] = midRange(w, 'EURUSD-PERP', from, to);
    expect(vhi).toBeGreaterThan(vlo);
    const width = Math.max(vhi - vlo, 10);
    expect(Math.abs(wlo - vlo)).toBeLessThanOrEqual(width);
    expect(Math.abs(whi - vhi)).toBeLessThanOrEqual(width);
  });

  it('gives clear errors for bad flags', async () => {
    const fails = async (args: string[], msg: RegExp): Promise<void> => {
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const err = await record.run(args).catch((e: unknown) => e).finally(() => spy.mockRestore());
      expect(err, args.join(' ')).toBeInstanceOf(MmError);
      expect((err as MmError).code).toBe('USAGE');
      expect((err as MmError).message).toMatch(msg);
    };
    const out = join(dir, 'never.jsonl.gz');
    await fails(['--local', '--symbols', 'EURUSD-PERP', '--out', out], /pass --duration <seconds>.*or --wall-clock/);
    await fails(['--local', '--symbols', 'EURUSD-PERP', '--out', out, '--duration', '0'], /--duration/);
    await fails(['--wall-clock', '--base-url', 'http://127.0.0.1:1', '--symbols', 'X', '--out', out], /--wall-clock .*needs --local/);
    await fails(['--seed', '3', '--base-url', 'http://127.0.0.1:1', '--symbols', 'X', '--out', out], /--seed .*needs --local/);
    await fails(['--local', '--base-url', 'http://127.0.0.1:1', '--symbols', 'X', '--out', out, '--duration', '5'], /one of --local, --config and --base-url/);
    await fails(['--local', '--clock-speed', '0', '--symbols', 'EURUSD-PERP', '--out', out, '--duration', '5'], /--clock-speed must be a positive number/);
    await fails(['--local', '--seed', '-1', '--symbols', 'EURUSD-PERP', '--out', out, '--duration', '5'], /--seed must be an integer/);
    await fails(['--local', '--start', 'soon', '--symbols', 'EURUSD-PERP', '--out', out, '--duration', '5'], /--start: expected an ISO 8601 time/);
    await fails(['--local', '--symbols', 'NOPE-PERP', '--out', out, '--duration', '5'], /does not list NOPE-PERP/);
    const preset = await record.run(['--local', '--preset', 'wild', '--symbols', 'EURUSD-PERP', '--out', out, '--duration', '5']).catch((e: unknown) => e);
    expect(String(preset)).toMatch(/unknown preset "wild"/);
  });
});
