import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { command as sweep } from '../../src/cli/commands/sweep.ts';
import { encodeJson } from '../../src/research/canonical.ts';
import { errorResult, makeJob, type ResearchJob } from '../../src/research/job.ts';
import { writePlan } from '../../src/research/journal.ts';
import { batchId } from '../../src/research/batch.ts';
import { JOB_NAME, redisRunner } from '../../src/research/redis-runner.ts';
import { DEFAULT_RESULTS_TTL_S, legacyResultsKey, parseResultsTtl, resultKey, storeResult } from '../../src/research/result-store.ts';
import { needs } from '../setup/system-deps.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-results-ttl-'));
const Q = 'ttl-test';

describe('--results-ttl parsing', () => {
  it('takes a duration of at least a second, or never', () => {
    expect(parseResultsTtl('30d')).toBe(30 * 86_400);
    expect(parseResultsTtl('1h30m')).toBe(5400);
    expect(parseResultsTtl('never')).toBeNull();
    expect(DEFAULT_RESULTS_TTL_S).toBe(30 * 86_400);
    expect(() => parseResultsTtl('500ms')).toThrow(/--results-ttl: at least 1s, got 500ms/);
    expect(() => parseResultsTtl('forever')).toThrow(/--results-ttl \(or never\): expected a duration like 90s/);
  });
});

describe.skipIf(!needs('redis'))('stored results expire and can be cleared (real redis-server)', () => {
  let redis: TestRedis;
  let conn: Redis;
  let jobs: ResearchJob[] = [];
  const ttl = async (j: ResearchJob): Promise<number> => conn.ttl(resultKey(Q, j.id));
  beforeAll(async () => {
    redis = await startRedis();
    conn = new Redis(redis.url);
    const setup = await loadBacktestSetup(join(ROOT, 'config/backtest.yaml'));
    jobs = [1, 2, 3, 4, 5].map((k) => makeJob({ index: k, point: [['p', k]], window: { id: 'w1', startMs: null, endMs: null }, data: ['/d/x.jsonl.gz'], fingerprints: ['sha256:aa'], spec: setup.spec, codeVersion: 'test' }));
  }, 20_000);
  afterAll(async () => {
    conn?.disconnect();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a worker stores a result with the TTL its job carries; a sweep renews the results it finds to its own', async () => {
    const [a, b] = jobs;
    await storeResult(conn, Q, a!.id, encodeJson(errorResult(a!, 'stored', false)), 60);
    await storeResult(conn, Q, b!.id, encodeJson(errorResult(b!, 'stored', false)), null);
    expect(await ttl(a!)).toBeGreaterThan(50);
    expect(await ttl(a!)).toBeLessThanOrEqual(60);
    expect(await ttl(b!)).toBe(-1); // never expires
    // A coordinator finds both stored (no worker needed) and renews them to its TTL.
    const runner = await redisRunner({ url: redis.url, queueName: Q, resultsTtlS: 7200 });
    const found = await runner.run([a!, b!]);
    expect([...found.values()].map((r) => r.row.error)).toEqual(['stored', 'stored']);
    for (const j of [a!, b!]) expect(await ttl(j)).toBeGreaterThan(7000);
    await runner.close();
    const keep = await redisRunner({ url: redis.url, queueName: Q, resultsTtlS: null });
    await keep.run([a!]);
    await keep.close();
    expect(await ttl(a!)).toBe(-1);
  });

  it('mmbot sweep --clear <dir> deletes that sweep\'s results (plan and journal) and waiting jobs; --clear all the whole queue\'s', async () => {
    const [a, b, c, d, e] = jobs;
    for (const j of [a!, b!, c!, e!]) await storeResult(conn, Q, j.id, encodeJson(errorResult(j, 'stored', false)), 3600);
    await conn.hset(legacyResultsKey(Q), 'old', '{}'); // what earlier versions left, without expiry
    // The sweep planned a and d; its journal also names c (a later halving rung); d is still waiting on the queue.
    const out = join(dir, 'sweep');
    writePlan(out, { format: 'mmbot-sweep', version: 1, codeVersion: 'test', meta: { backend: redis.url, queue: Q }, jobs: [a!, d!] });
    appendFileSync(join(out, 'results.jsonl'), `${encodeJson(errorResult(c!, 'stored', false))}\n`);
    const queue = new Queue(Q, { connection: { url: redis.url } });
    await queue.add(JOB_NAME, { jobs: encodeJson([d]) }, { jobId: batchId([d!]) });
    let said = '';
    const w = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((said += String(s)), true));
    try {
      expect(await sweep.run(['--clear', out])).toBe(0);
      expect(said).toContain(`sweep: cleared the 3 job(s) of ${out} from ${redis.url} (queue ${Q}): 2 stored result(s) deleted, 1 waiting job(s) taken off the queue; the folder is kept`);
      expect(await conn.exists(resultKey(Q, a!.id), resultKey(Q, c!.id))).toBe(0);
      expect(await queue.getJobState(batchId([d!]))).toBe('unknown');
      expect(await conn.exists(resultKey(Q, b!.id), resultKey(Q, e!.id))).toBe(2); // other sweeps' results stay
      said = '';
      expect(await sweep.run(['--clear', 'all', '--backend', redis.url, '--queue', Q])).toBe(0);
      expect(said).toContain(`sweep: cleared every stored result from ${redis.url} (queue ${Q}): 3 stored result(s) deleted`); // b, e and the legacy hash
      expect(await conn.exists(resultKey(Q, b!.id), resultKey(Q, e!.id), legacyResultsKey(Q))).toBe(0);
    } finally {
      w.mockRestore();
      await queue.close();
    }
    await expect(sweep.run(['--clear', 'all'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--clear all: name the backend/) });
    await expect(sweep.run(['--clear', out, '--top', '3'])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/--clear takes only --backend and --queue: drop --top/) });
    writePlan(join(dir, 'local'), { format: 'mmbot-sweep', version: 1, codeVersion: 'test', meta: { backend: 'embedded', queue: Q }, jobs: [a!] });
    await expect(sweep.run(['--clear', join(dir, 'local')])).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/ran on the embedded backend/) });
  });
});
