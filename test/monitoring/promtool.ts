import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Finds an executable on PATH; null when missing. */
export function which(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // keep looking
    }
  }
  return null;
}

/** The message tests fail with when the Prometheus binaries are missing (CI installs them). */
export const PROMETHEUS_MISSING =
  'prometheus/promtool not found on PATH: install Debian\'s package (`apt-get install -y prometheus`); .ci/run does this in CI';

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
