import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

import { freePort } from './free-port.ts';

export { freePort };

/** A throwaway redis-server on loopback (no persistence), for tests. */
export interface TestRedis {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `redis-server` on a free port and waits until it answers PING (at most 10 s). */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-redis-'));
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let k = 0; k < 100; k++) {
    const c = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.ping();
      c.disconnect();
      return { url, process: proc, stop };
    } catch {
      c.disconnect();
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`redis-server did not start on port ${port}`);
}
