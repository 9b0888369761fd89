/** Helpers of the soak script: resident memory of another process and a least-squares slope. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Resident memory of a process in MB: all of it, and its anonymous part (malloc, JS heap...) when known. */
export interface ResidentMb {
  readonly rss: number;
  /** Anonymous resident pages (Linux `RssAnon`): excludes mapped files (node's code, libraries). */
  readonly anon: number | null;
}

/** Reads `VmRSS` and `RssAnon` (kB) from the text of a Linux `/proc/<pid>/status` (null without VmRSS). */
export function parseProcStatus(text: string): ResidentMb | null {
  const kb = (key: string): number | null => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) / 1024 : null;
  };
  const rss = kb('VmRSS');
  return rss === null ? null : { rss, anon: kb('RssAnon') };
}

/** Resident memory of process `pid` (null when it cannot be read, e.g. it exited). */
export function residentMb(pid: number): ResidentMb | null {
  try {
    if (existsSync(`/proc/${pid}/status`)) return parseProcStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { rss: Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024, anon: null };
  } catch {
    return null;
  }
}

/** Least-squares slope of ys over xs (0 with fewer than two points or no spread in xs). */
export function linearSlope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
