/**
 * Where a timed distributed sweep's time goes, for `sweep-redis.bench.ts`: the coordinator's own
 * accounting (its `sweep: time:` lines), each worker process's CPU by thread and the redis-server's
 * CPU (Linux `/proc`, ns resolution from schedstat), and Redis commands per sweep.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of every thread of a process so far, ms by thread id (empty where /proc is missing). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try {
        out.set(Number(t), Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
      } catch {
        // a thread that ended in between
      }
    }
  } catch {
    // not Linux, or the process is gone
  }
  return out;
}

/** A worker process's CPU over an interval, ms: its main thread, its busiest other thread (the job thread) and the rest (V8's GC and compiler helpers, libuv). */
export interface ProcessCpu {
  readonly mainMs: number;
  readonly jobThreadMs: number;
  readonly otherMs: number;
}

/** The CPU a process used between two `threadCpuMs` readings, split as `ProcessCpu`. */
export function processCpu(pid: number, before: Map<number, number>, after: Map<number, number>): ProcessCpu {
  const used = [...after].map(([tid, ms]) => [tid, ms - (before.get(tid) ?? 0)] as const);
  const main = used.find(([tid]) => tid === pid)?.[1] ?? 0;
  const others = used.filter(([tid]) => tid !== pid).map(([, ms]) => ms);
  const job = Math.max(0, ...others);
  return { mainMs: main, jobThreadMs: job, otherMs: others.reduce((a, b) => a + b, 0) - job };
}

/** What the coordinator says about a sweep on its `sweep: time:` lines. */
export interface CoordinatorAccount {
  /** CPU since the plan was made (queueing, collecting, reports), s. */
  readonly cpuSincePlannedS: number;
  /** CPU of the whole command (start-up and planning included), s. */
  readonly cpuTotalS: number;
  readonly queuedJobs: number;
  readonly batches: number;
  readonly slots: number;
  /** Marks from the start of the run, s. */
  readonly queuedAtS: number;
  readonly firstResultS: number;
  readonly lastResultS: number;
  /** Per worker (by pid), as reported: jobs, batches and thread time by phase, s. */
  readonly workers: readonly { readonly pid: number; readonly jobs: number; readonly batches: number; readonly busyS: number; readonly loadS: number; readonly setupS: number; readonly replayS: number; readonly reportS: number; readonly threadCpuS: number | null }[];
}

const num = (m: RegExpExecArray | null, k: number): number => Number(m?.[k] ?? NaN);

/** Reads the coordinator's `sweep: time:` lines (null when it printed none: not a Redis sweep). */
export function parseCoordinatorAccount(stderr: string): CoordinatorAccount | null {
  const lines = stderr.split('\n').filter((l) => l.startsWith('sweep: time: ')).map((l) => l.slice('sweep: time: '.length));
  const cpu = /^coordinator CPU ([\d.]+) s since planned \(([\d.]+) s in all\)/.exec(lines[0] ?? '');
  const run = /^(\d+) job\(s\) queued in (\d+) batch\(es\) for (\d+) thread\(s\) by ([\d.]+) s; first result ([\d.]+) s, last ([\d.]+) s/.exec(lines[1] ?? '');
  if (!cpu || !run) return null;
  const workers = lines.slice(2).flatMap((l) => {
    const m = /^worker \S+:(\d+): (\d+) job\(s\) in (\d+) batch\(es\); thread busy ([\d.]+) s \(load ([\d.]+), setup ([\d.]+), replay ([\d.]+), report ([\d.]+)\), thread CPU (\?|[\d.]+)/.exec(l);
    if (!m) return [];
    return [{ pid: num(m, 1), jobs: num(m, 2), batches: num(m, 3), busyS: num(m, 4), loadS: num(m, 5), setupS: num(m, 6), replayS: num(m, 7), reportS: num(m, 8), threadCpuS: m[9] === '?' ? null : num(m, 9) }];
  });
  return { cpuSincePlannedS: num(cpu, 1), cpuTotalS: num(cpu, 2), queuedJobs: num(run, 1), batches: num(run, 2), slots: num(run, 3), queuedAtS: num(run, 4), firstResultS: num(run, 5), lastResultS: num(run, 6), workers };
}

/** Total calls in a Redis `INFO commandstats` answer. */
export function redisCalls(info: string): number {
  let n = 0;
  for (const m of info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) n += Number(m[1]);
  return n;
}
