import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { dataSpan, explicitWindows, splitWindows } from '../../src/research/windows.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-research-win-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('data windows', () => {
  it('reads the span of a recording from its first and last events', async () => {
    expect(await dataSpan([SAMPLE])).toEqual({ startMs: 1795017362686, endMs: 1795017841526 });
    const head = '{"format":"mmbot-recording","version":3}\n';
    const plain = join(dir, 'p.jsonl');
    writeFileSync(plain, `${head}{"t":"t","r":10}\n\n{"t":"t","r":20}\r\n{"t":"t","r":35}`);
    const gz = join(dir, 'q.jsonl.gz');
    writeFileSync(gz, gzipSync(`${head}{"t":"t","r":40}\n{"t":"t","r":90}\n`));
    expect(await dataSpan([plain, gz], dir)).toEqual({ startMs: 10, endMs: 90 });
    writeFileSync(join(dir, 'h.jsonl'), head);
    await expect(dataSpan([join(dir, 'h.jsonl')])).rejects.toThrow(/no events after the header/);
    writeFileSync(join(dir, 'g.jsonl.gz'), gzipSync('garbage\n{"t":"t","r":1}\n'));
    await expect(dataSpan([join(dir, 'g.jsonl.gz')])).rejects.toMatchObject({ code: 'RECORDING_INVALID', message: expect.stringMatching(/g\.jsonl\.gz:1: not an mmbot recording/) });
    writeFileSync(join(dir, 'one.jsonl'), '{"t":"t","r":1}');
    await expect(dataSpan([join(dir, 'one.jsonl')])).rejects.toThrow(/one\.jsonl:1: not an mmbot recording/);
    await expect(dataSpan([join(dir, 'none.jsonl')])).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('splits a span into equal consecutive windows open at both ends', () => {
    expect(splitWindows({ startMs: 0, endMs: 300 }, 3)).toEqual([
      { id: 'w1', startMs: null, endMs: 100 },
      { id: 'w2', startMs: 100, endMs: 200 },
      { id: 'w3', startMs: 200, endMs: null },
    ]);
    expect(splitWindows({ startMs: 5, endMs: 6 }, 1)).toEqual([{ id: 'w1', startMs: null, endMs: null }]);
    expect(() => splitWindows({ startMs: 0, endMs: 2 }, 3)).toThrow(/too short/);
    expect(() => splitWindows({ startMs: 0, endMs: 2 }, 0)).toThrow(/positive integer/);
  });

  it('takes explicit windows and rejects empty or duplicate ones', () => {
    expect(explicitWindows([{ startMs: 1, endMs: 2 }, { id: 'tail', startMs: 2, endMs: null }]).map((w) => w.id)).toEqual(['w1', 'tail']);
    expect(() => explicitWindows([{ startMs: 2, endMs: 2 }])).toThrow(/not after start/);
    expect(() => explicitWindows([{ id: 'a', startMs: null, endMs: null }, { id: 'a', startMs: null, endMs: null }])).toThrow(/distinct/);
  });
});
