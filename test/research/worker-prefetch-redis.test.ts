import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { executeJob, RecordingCache } from '../../src/research/job-exec.ts';
import { makeJob, type ResearchJob } from '../../src/research/job.ts';
import { redisRunner } from '../../src/research/redis-runner.ts';
import { startResearchWorker } from '../../src/research/worker.ts';
import { needs } from '../setup/system-deps.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-prefetch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Serves the sample under /a.jsonl.gz and /b.jsonl.gz, holding /a's answer until `release()`: job A
 * (on /a) is then stuck in its download, and job B (on /b) is only asked for if the worker took
 * a second job while the first was not done.
 */
function dataServer(): Promise<{ server: Server; url: string; asked: string[]; askedB: Promise<void>; release(): void }> {
  const bytes = readFileSync(SAMPLE);
  const asked: string[] = [];
  let held: ServerResponse | null = null;
  let released = false;
  let onB: () => void = () => undefined;
  const askedB = new Promise<void>((r) => (onB = r));
  const send = (res: ServerResponse): void => void res.writeHead(200, { 'content-type': 'application/gzip' }).end(bytes);
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/b.jsonl.gz') onB();
    if (req.url === '/a.jsonl.gz' && !released) held = res;
    else send(res);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      ok({
        server,
        url: `http://127.0.0.1:${port}`,
        asked,
        askedB,
        release() {
          released = true;
          if (held) send(held);
          held = null;
        },
      });
    }),
  );
}

describe.skipIf(!needs('redis'))('a research worker takes the next job while a thread is busy (real redis-server)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('with one thread, job B is taken (its data asked for) while job A is still in hand; both results are exact', async () => {
    const data = await dataServer();
    const fp = await dataFingerprint(SAMPLE, dir);
    const window = { id: 'all', startMs: null, endMs: null };
    const job = async (name: string, index: number, halfSpreadTicks: number): Promise<ResearchJob> => {
      const point = [['bot.strategies.0.params.halfSpreadTicks', halfSpreadTicks]] as const;
      const setup = await loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), point);
      return makeJob({ index, point, window, data: [`${data.url}/${name}.jsonl.gz`], fingerprints: [fp], spec: setup.spec, baseDir: setup.config.source.dir });
    };
    const [a, b] = [await job('a', 0, 1), await job('b', 1, 3)];
    const worker = await startResearchWorker({ url: redis.url, queueName: 'prefetch-test', concurrency: 1, cacheDir: join(dir, 'worker-cache') });
    const runner = await redisRunner({ url: redis.url, queueName: 'prefetch-test' });
    try {
      const done = runner.run([a, b]);
      // Without the job taken ahead, B waits in Redis until A is done, and A waits for its data: this never settles.
      const took = await Promise.race([data.askedB.then(() => 'B taken while A in hand'), done.then(() => 'finished'), new Promise((r) => setTimeout(r, 30_000, 'timed out'))]);
      expect(took).toBe('B taken while A in hand');
      expect(data.asked).toEqual(['/a.jsonl.gz', '/b.jsonl.gz']);
      data.release();
      const results = await done;
      const local = new RecordingCache(1, null);
      for (const j of [a, b]) expect(results.get(j.id)).toEqual({ ...(await executeJob(j, [SAMPLE], local)), jobId: j.id });
      expect([a, b].map((j) => [results.get(j.id)!.row.error, results.get(j.id)!.row.fills])).toEqual([
        [null, 1304],
        [null, 50],
      ]);
    } finally {
      data.release();
      await runner.close();
      await worker.close(true);
      data.server.close();
    }
  }, 120_000);
});
