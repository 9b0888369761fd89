import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter, decodeEvent, loadColumnar, openRecording, toColumnar, type RecordedEvent } from '../../src/record/index.ts';
import { testInstrument } from './fixtures.ts';

// The bulk loader reads a chunk of lines at a time (`eventBatches`). These tests hold it to the
// line-at-a-time decode it replaced: the whole file gunzipped, split on newlines, each line
// JSON.parse'd and decoded on its own.

const dir = mkdtempSync(join(tmpdir(), 'mmbot-batched-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const START = 1_767_225_600_000;

/** The reference: every non-empty line after the header, decoded alone, with its 1-based line number. */
function referenceDecode(path: string): { line: number; event: RecordedEvent }[] {
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf-8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const header = JSON.parse(lines[0]!) as { symbols: string[] };
  const symbols = new Set(header.symbols);
  const out: { line: number; event: RecordedEvent }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (l.length > 0) out.push({ line: i + 1, event: decodeEvent(JSON.parse(l), symbols) });
  }
  return out;
}

async function batched(path: string): Promise<{ line: number; event: RecordedEvent }[]> {
  const rec = await openRecording(path);
  const out: { line: number; event: RecordedEvent }[] = [];
  for await (const batch of rec.eventBatches()) out.push(...batch);
  return out;
}

/** Every recording in the repo: the sample and any under test/fixtures. */
function repoRecordings(): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.jsonl.gz') || f.endsWith('.jsonl')) found.push(p);
    }
  };
  walk('data/sample');
  walk('test/fixtures');
  return found;
}

function writeSynthetic(name: string, events: number): Promise<string> {
  const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
  const path = join(dir, name);
  const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: START, source: 'synthetic' });
  for (const ev of syntheticMarket({ instrument: inst, seed: 7, events, startMs: START, midTicks: 11380, levels: 20, meanGapMs: 0.5, tickerEveryMs: 1000 })) w.write(ev);
  return w.close().then(() => path);
}

describe('batched recording reader', () => {
  it('finds the sample recording', () => {
    expect(repoRecordings()).toContain(join('data/sample', 'eurusd-perp-local.jsonl.gz'));
  });

  for (const path of repoRecordings()) {
    it(`decodes ${path} to the same events, lines and columns as the line-at-a-time decode`, async () => {
      const ref = referenceDecode(path);
      const got = await batched(path);
      expect(got.length).toBe(ref.length);
      expect(got).toStrictEqual(ref);
      const rec = await openRecording(path);
      const perLine: { line: number; event: RecordedEvent }[] = [];
      for await (const l of rec.events()) perLine.push(l);
      expect(perLine).toStrictEqual(ref);
      const col = await loadColumnar([path]);
      expect(col).toStrictEqual(toColumnar(rec.header, rec.instruments, ref.map((r) => r.event)));
    });
  }

  it('decodes a recording of many chunks (CRLF line ends too) like the line-at-a-time decode', async () => {
    const path = await writeSynthetic('many.jsonl.gz', 40_000);
    const ref = referenceDecode(path);
    expect(ref.length).toBe(51_217);
    expect(await batched(path)).toStrictEqual(ref);
    const crlf = join(dir, 'crlf.jsonl');
    writeFileSync(crlf, gunzipSync(readFileSync(path)).toString('utf-8').replaceAll('\n', '\r\n'));
    expect(await batched(crlf)).toStrictEqual(ref);
  });

  it('names the file and line of a bad line past the first chunk', async () => {
    const path = await writeSynthetic('bad-src.jsonl.gz', 40_000);
    const lines = gunzipSync(readFileSync(path)).toString('utf-8').split('\n');
    lines[30_000 - 1] = '{"t":"t","s":"EURUSD-PERP","e":1,"r":1,"p":1,"q":0,"d":"B"}';
    const bad = join(dir, 'bad.jsonl.gz');
    writeFileSync(bad, gzipSync(lines.join('\n')));
    await expect(loadColumnar([bad])).rejects.toThrow(`${bad}:30000: q: expected a positive quantity, got 0`);
  });
});
