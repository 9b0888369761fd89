import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { executeJob, RecordingCache } from '../../src/research/job-exec.ts';
import { makeJob, type ResearchJob } from '../../src/research/job.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'config/backtest.yaml');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-job-exec-'));
const data = join(dir, 'eurusd.jsonl.gz'); // a copy this test rewrites in place
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jobs: ResearchJob[] = [];
beforeAll(async () => {
  copyFileSync(SAMPLE, data);
  for (const [index, h] of [1, 3].entries()) {
    const point = [['bot.strategies.0.params.halfSpreadTicks', h]] as const;
    const setup = await loadBacktestSetup(CONFIG, point);
    jobs.push(makeJob({ index, point, window: { id: 'all', startMs: null, endMs: null }, data: [data], fingerprints: ['sha256:test'], spec: setup.spec, baseDir: setup.config.source.dir }));
  }
}, 30_000);

/** The sample cut to its header and first `lines` events, written over `path` with a later mtime. */
function rewriteShorter(path: string, lines: number): void {
  const text = gunzipSync(readFileSync(SAMPLE)).toString('utf8').split('\n');
  writeFileSync(path, gzipSync(`${text.slice(0, 1 + lines).join('\n')}\n`));
  const later = new Date(Date.now() + 60_000);
  utimesSync(path, later, later);
}

describe('a job thread keeping recordings loaded across jobs (RecordingCache)', () => {
  it('loads a recording once for every job on it and gives exactly the results of a fresh load', async () => {
    const kept = new Recording();
    const [a, b] = jobs as [ResearchJob, ResearchJob];
    const first = await executeJob(a, [data], kept.cache);
    const other = await executeJob(b, [data], kept.cache);
    const again = await executeJob(a, [data], kept.cache);
    expect(kept.cache.loads).toBe(1);
    const fresh = new Recording();
    expect(await executeJob(a, [data], fresh.cache)).toEqual(again);
    expect(again).toEqual(first);
    expect(await executeJob(b, [data], new Recording().cache)).toEqual(other);
    expect([first.row.error, first.row.fills, first.row.net.toFixed(6)]).toEqual([null, 1304, '22.922118']);
    expect([other.row.error, other.row.fills, other.row.net.toFixed(6)]).toEqual([null, 50, '1.621723']);
  }, 60_000);

  it('loads a recording again when its file changed since (same path, new size and mtime)', async () => {
    const kept = new Recording();
    const a = jobs[0]!;
    const before = await executeJob(a, [data], kept.cache);
    rewriteShorter(data, 1000);
    const after = await executeJob(a, [data], kept.cache);
    expect(kept.cache.loads).toBe(2);
    expect(after).toEqual(await executeJob(a, [data], new Recording().cache));
    expect([before.row.fills, after.row.fills, after.durationS.toFixed(3)]).toEqual([1304, 616, '244.541']);
    copyFileSync(SAMPLE, data); // back to the full sample for any later test
  }, 60_000);
});

/** A thread's cache as JobPool builds it: two data sets, no sidecars (every miss decodes). */
class Recording {
  readonly cache = new RecordingCache(2, null);
}
