import { execFile } from 'node:child_process';
import { gzipSync, gunzipSync } from 'node:zlib';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecording } from '../../../src/record/index.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIX = join(ROOT, 'test/fixtures/tardis');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-failed-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mmbot = (args: string[]) => run(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' });
const importArgs = (book: string, out: string) => ['import', 'tardis', '--book', book, '--instrument', join(FIX, 'btcusdt.yaml'), '--out', out, '--json'];

describe('a failed import never leaves or overwrites a complete-looking recording (issue 24 #1)', () => {
  it('a truncated Tardis CSV exits 2, the previous --out is byte-identical and no temporary file is left', async () => {
    const out = join(dir, 'btc.jsonl.gz');
    await mmbot(importArgs(join(FIX, 'btcusdt-book-30s.csv.gz'), out));
    const before = readFileSync(out);

    // The same CSV cut in the middle of its gzip stream: reading it fails half-way.
    const full = readFileSync(join(FIX, 'btcusdt-book-30s.csv.gz'));
    const truncated = join(dir, 'truncated.csv.gz');
    writeFileSync(truncated, full.subarray(0, Math.floor(full.length / 2)));
    const err = (await mmbot(importArgs(truncated, out)).catch((e: unknown) => e)) as { code: number; stderr: string };

    expect(err.code).toBe(2);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['btc.jsonl.gz', 'truncated.csv.gz']);
  }, 90_000);

  it('a failed import with no previous --out leaves no file at all', async () => {
    const full = readFileSync(join(FIX, 'btcusdt-book-30s.csv.gz'));
    const truncated = join(dir, 'truncated2.csv.gz');
    writeFileSync(truncated, full.subarray(0, Math.floor(full.length / 3)));
    const out = join(dir, 'fresh', 'none.jsonl.gz');
    const err = (await mmbot(importArgs(truncated, out)).catch((e: unknown) => e)) as { code: number };
    expect(err.code).toBe(2);
    expect(readdirSync(join(dir, 'fresh'))).toEqual([]);
  }, 90_000);

  it('the format has an end marker (the gzip trailer): a recording cut before it is refused with file:line', async () => {
    const out = join(dir, 'btc.jsonl.gz');
    const whole = readFileSync(out);
    const lines = gunzipSync(whole).toString('utf8').split('\n').length;
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, whole.subarray(0, whole.length - 8)); // no CRC32/ISIZE trailer
    const rec = await openRecording(cut);
    let n = 0;
    const read = (async () => {
      for await (const _ of rec.events()) n++;
    })();
    await expect(read).rejects.toThrow(/cut\.jsonl\.gz:\d+: unreadable data \(unexpected end of file\)/);
    expect(n).toBeLessThan(lines);
    // The intact file reads through (and a re-gzipped copy of it too: the marker is gzip's own).
    writeFileSync(join(dir, 'regz.jsonl.gz'), gzipSync(gunzipSync(whole)));
    const again = await openRecording(join(dir, 'regz.jsonl.gz'));
    let m = 0;
    for await (const _ of again.events()) m++;
    expect(m).toBe(lines - 2); // header and the final empty string
  }, 90_000);
});
