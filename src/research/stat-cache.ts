import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const memory = new Map<string, string>();

/**
 * Memoizes `compute(path)` by the file's absolute path, size and modification time: in memory for
 * the process and, with `cacheDir`, in a small file there, so a multi-GB recording is read once per
 * machine however many sweeps and workers name it. `kind` separates what is cached (hash, span).
 * @throws whatever `statSync` or `compute` throws (a missing file: ENOENT).
 */
export async function cachedByStat(kind: string, path: string, cacheDir: string | null, compute: (path: string) => Promise<string>): Promise<string> {
  const abs = resolve(path);
  const st = statSync(abs);
  const key = createHash('sha1').update(JSON.stringify([kind, abs, st.size, st.mtimeMs])).digest('hex');
  const hit = memory.get(key);
  if (hit !== undefined) return hit;
  const file = cacheDir === null ? null : join(cacheDir, 'stat-cache', `${kind}-${key}`);
  if (file !== null) {
    try {
      const v = readFileSync(file, 'utf8');
      memory.set(key, v);
      return v;
    } catch {
      // not cached yet
    }
  }
  const v = await compute(abs);
  memory.set(key, v);
  if (file !== null) {
    try {
      mkdirSync(join(cacheDir!, 'stat-cache'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, v);
      renameSync(tmp, file);
    } catch {
      // An unwritable cache only costs the next process a re-read.
    }
  }
  return v;
}
