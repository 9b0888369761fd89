import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { MmError } from '../core/errors.ts';
import { decodeJson } from './canonical.ts';
import type { JobResult } from './job.ts';
import { parseDurationMs } from './duration.ts';
import { connectRedis } from './redis-backend.ts';

/**
 * How long a result stays in Redis by default: 30 days. Job ids include the code version, so a
 * stored result only ever serves sweeps of the same checkout; a month covers resuming, re-running
 * and widening a sweep while that code is current, and bounds what a busy research box accumulates
 * (the coordinator's journal keeps every result of its sweep locally anyway). `never` keeps them.
 */
export const DEFAULT_RESULTS_TTL_S = 30 * 86_400;

/** The Redis key of one stored result (shared by every sweep on the queue: ids are content hashes). */
export const resultKey = (queue: string, jobId: string): string => `mmbot:research:${queue}:result:${jobId}`;
/** The hash where earlier versions kept every result, without expiry (cleared by `clearAllResults`). */
export const legacyResultsKey = (queue: string): string => `mmbot:research:${queue}:results`;

/**
 * Parses `--results-ttl`: a duration (`30d`, `12h`; at least 1 s) or `never`.
 * @returns seconds, or null for never.
 * @throws MmError USAGE naming the flag and value.
 */
export function parseResultsTtl(text: string): number | null {
  if (text === 'never') return null;
  const ms = parseDurationMs(text, '--results-ttl (or never)');
  if (ms < 1000) throw new MmError('USAGE', `--results-ttl: at least 1s, got ${text}`);
  return Math.round(ms / 1000);
}

/** The TTL as text (`30d`, `never`). */
export const ttlText = (ttlS: number | null): string => (ttlS === null ? 'never' : `${ttlS % 86_400 === 0 ? `${ttlS / 86_400}d` : `${ttlS}s`}`);

/** Stores one result (encoded) under its job id, expiring after `ttlS` seconds (null: never). */
export async function storeResult(conn: Redis, queue: string, jobId: string, encoded: string, ttlS: number | null): Promise<void> {
  if (ttlS === null) await conn.set(resultKey(queue, jobId), encoded);
  else await conn.set(resultKey(queue, jobId), encoded, 'EX', ttlS);
}

/**
 * The stored results of `ids` (null where none), and for those found, their expiry renewed to
 * `ttlS` (null: kept for good): a sweep that uses a result keeps it alive as long as it keeps it.
 */
export async function loadResults(conn: Redis, queue: string, ids: readonly string[], ttlS: number | null): Promise<(string | null)[]> {
  if (ids.length === 0) return [];
  const texts = await conn.mget(...ids.map((id) => resultKey(queue, id)));
  const found = ids.filter((_, k) => texts[k] !== null);
  if (found.length > 0) {
    const p = conn.pipeline();
    for (const id of found) {
      if (ttlS === null) p.persist(resultKey(queue, id));
      else p.expire(resultKey(queue, id), ttlS);
    }
    await p.exec();
  }
  return texts;
}

/** The stored results of `ids`, decoded (undefined where none), without touching their expiry. */
export async function loadStoredResults(conn: Redis, queue: string, ids: readonly string[]): Promise<(JobResult | undefined)[]> {
  if (ids.length === 0) return [];
  const texts = await conn.mget(...ids.map((id) => resultKey(queue, id)));
  return texts.map((t) => (t === null ? undefined : decodeJson<JobResult>(t)));
}

const CHUNK = 500;

/** Deletes the stored results of `ids`; resolves to how many there were. */
export async function clearResults(conn: Redis, queue: string, ids: readonly string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += CHUNK) n += await conn.del(...ids.slice(i, i + CHUNK).map((id) => resultKey(queue, id)));
  return n;
}

/** Deletes every stored result of the queue (and the legacy hash); resolves to how many keys went. */
export async function clearAllResults(conn: Redis, queue: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, keys] = await conn.scan(cursor, 'MATCH', resultKey(queue, '*'), 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) n += await conn.del(...keys);
  } while (cursor !== '0');
  return n + (await conn.del(legacyResultsKey(queue)));
}

/**
 * Clears a backend: the stored results of `ids` (null: every result of the queue), and the batches
 * still waiting on the queue that hold any of those jobs (a running one finishes and stores its results).
 * @returns results deleted, and jobs of `ids` taken off the queue (with their batches).
 * @throws MmError BACKEND_UNAVAILABLE when Redis cannot be reached.
 */
export async function clearBackend(url: string, queue: string, ids: readonly string[] | null): Promise<{ readonly deleted: number; readonly dequeued: number }> {
  const conn = await connectRedis(url);
  const q = new Queue<{ readonly jobs?: string }>(queue, { connection: conn });
  try {
    let dequeued = 0;
    if (ids !== null && ids.length > 0) {
      const mine = new Set(ids);
      for (const b of await q.getJobs(['waiting', 'delayed', 'prioritized'])) {
        const members = typeof b?.data?.jobs === 'string' ? decodeJson<{ readonly id: string }[]>(b.data.jobs).filter((j) => mine.has(j.id)).length : 0;
        if (members > 0 && b.id !== undefined && (await q.remove(b.id)) === 1) dequeued += members;
      }
    }
    const deleted = ids === null ? await clearAllResults(conn, queue) : await clearResults(conn, queue, ids);
    return { deleted, dequeued };
  } finally {
    await q.close();
    await conn.quit().catch(() => undefined);
  }
}
