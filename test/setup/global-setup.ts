import { MISSING_ENV, REQUIRE_ENV, ensureSystemDeps, installHint } from './system-deps.ts';

/**
 * Vitest global setup (runs once before any test file): installs the system programs tests need
 * when it can; what stays missing is skipped with one loud line each, or fails the run when
 * MMBOT_REQUIRE_SYSTEM_DEPS=1 (CI).
 */
export default function setup(): void {
  const write = (line: string): void => void process.stderr.write(`${line}\n`);
  const missing = ensureSystemDeps(write);
  process.env[MISSING_ENV] = missing.join(',');
  if (missing.length === 0) return;
  const lines = missing.map((d) => `${d} is not installed and cannot be installed here: its tests are SKIPPED. Install it with: ${installHint(d)}`);
  if (process.env[REQUIRE_ENV] === '1') throw new Error(`${REQUIRE_ENV}=1 but: ${lines.join('; ')}`);
  for (const l of lines) write(`\n\x1b[1;33m!!! ${l}\x1b[0m\n`);
}
