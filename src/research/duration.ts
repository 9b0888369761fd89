import { MmError } from '../core/errors.ts';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration like `90s`, `2m`, `1h30m`, `250ms` or `1.5m` into milliseconds (whole, > 0).
 * @throws MmError with `code` (USAGE for flags, CONFIG_INVALID for files) naming `where` and the value.
 */
export function parseDurationMs(text: unknown, where: string, code: 'USAGE' | 'CONFIG_INVALID' = 'USAGE'): number {
  const bad = (): MmError => new MmError(code, `${where}: expected a duration like 90s, 2m, 1h30m or 500ms, got ${JSON.stringify(text)}`);
  if (typeof text !== 'string') throw bad();
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(s)) throw bad();
  let ms = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  ms = Math.round(ms);
  if (!(ms > 0)) throw bad();
  return ms;
}

/** A duration in ms as short text (`2m`, `90s` → `1m30s`, `1h5m`, `500ms`, `7m58.84s`): parseDurationMs reads it back. */
export function formatDurationMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let s = ms / 1000;
  const parts: string[] = [];
  for (const [u, n] of [['d', 86_400], ['h', 3600], ['m', 60]] as const) {
    if (s >= n) ((parts.push(`${Math.floor(s / n)}${u}`)), (s -= Math.floor(s / n) * n));
  }
  if (s > 0 || parts.length === 0) parts.push(`${Number(s.toFixed(3))}s`);
  return parts.join('');
}
