import { execFile } from 'node:child_process';
import { installHint, which } from '../setup/system-deps.ts';

export { which };

/** The message a Prometheus helper throws with when the binaries are missing (tests skip before that). */
export const PROMETHEUS_MISSING = `prometheus/promtool not found on PATH: install them with \`${installHint('prometheus')}\``;

/**
 * Runs `promtool check metrics` on a /metrics text; resolves { code, output }.
 * @throws Error with PROMETHEUS_MISSING when promtool is not installed.
 */
export function promtoolCheckMetrics(text: string): Promise<{ code: number; output: string }> {
  const bin = which('promtool');
  if (!bin) throw new Error(PROMETHEUS_MISSING);
  return new Promise((resolve) => {
    const child = execFile(bin, ['check', 'metrics'], { timeout: 10_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(text);
  });
}
