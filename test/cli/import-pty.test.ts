import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../src/record/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIX = join(ROOT, 'test/fixtures/tardis');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-import-pty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** `script` (util-linux) gives the command a pty of its own; with no terminal above it, 0 columns. */
const hasScript = existsSync('/usr/bin/script');

describe.skipIf(!hasScript)('mmbot import in a terminal that reports 0 columns', () => {
  it('exits 0 and keeps the finished recording (before: RangeError in the progress bar after the last row, recording lost)', async () => {
    const out = join(dir, 'btc.jsonl.gz');
    const cmd = [process.execPath, 'bin/mmbot.js', 'import', 'tardis', '--book', join(FIX, 'btcusdt-book-30s.csv.gz'), '--trades', join(FIX, 'btcusdt-trades-30s.csv.gz'), '--instrument', join(FIX, 'btcusdt.yaml'), '--out', out]
      .map((a) => `'${a}'`)
      .join(' ');
    const r = await run('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, COLUMNS: '' } });
    expect(r.stdout).toContain('imported BTCUSDT');
    expect(r.stdout).not.toContain('RangeError');
    const rec = await readRecording(out);
    expect(rec.events.filter((e) => e.type === 'trade').length).toBe(1_159);
  }, 90_000);
});
