import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * System programs some tests drive for real (a Prometheus server, promtool...). Debian packages,
 * never downloaded binaries. Add a row here when a feature's tests need another server: the test
 * setup installs it when it can, and `needs()` lets those tests skip loudly when it cannot.
 */
export const SYSTEM_DEPS = {
  prometheus: { debianPackage: 'prometheus', binaries: ['prometheus', 'promtool'] },
  // The HTML report's render check (headless, driven by playwright-core, which downloads no browser).
  chromium: { debianPackage: 'chromium', binaries: ['chromium'] },
  // Distributed sweeps: a real Redis server behind BullMQ (coordinator + mmbot worker processes).
  redis: { debianPackage: 'redis-server', binaries: ['redis-server'] },
} as const;

/** A system dependency's name (a key of SYSTEM_DEPS). */
export type SystemDep = keyof typeof SYSTEM_DEPS;

/** Env var naming the deps the setup found missing (comma-separated); read by `needs()` in test workers. */
export const MISSING_ENV = 'MMBOT_TEST_MISSING_SYSTEM_DEPS';
/** Set to 1 (as `.ci/run` does) to fail the run instead of skipping when a dependency is missing. */
export const REQUIRE_ENV = 'MMBOT_REQUIRE_SYSTEM_DEPS';
/** Set to 1 to never run apt-get from the tests (then missing deps are skipped). */
export const NO_INSTALL_ENV = 'MMBOT_NO_INSTALL';

/** Finds an executable on PATH; null when missing. */
export function which(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
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

/** The command a user runs to install a dependency by hand. */
export function installHint(dep: SystemDep): string {
  return `sudo apt-get install -y ${SYSTEM_DEPS[dep].debianPackage}`;
}

/** True when every binary of `dep` is on PATH. */
export function isInstalled(dep: SystemDep): boolean {
  return SYSTEM_DEPS[dep].binaries.every((b) => which(b) !== null);
}

/** How apt-get may be run here: directly as root, through passwordless sudo, or not at all. */
function aptRunner(): string[] | null {
  if (process.env[NO_INSTALL_ENV] === '1' || !which('apt-get')) return null;
  if (process.getuid?.() === 0) return [];
  if (!which('sudo')) return null;
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0 ? ['sudo', '-n'] : null;
}

/**
 * Installs the missing Debian packages when apt-get can run (root or passwordless sudo) and returns
 * the dependencies still missing afterwards. Never throws: a failed install leaves the dep missing.
 */
export function ensureSystemDeps(log: (line: string) => void): SystemDep[] {
  const missing = (Object.keys(SYSTEM_DEPS) as SystemDep[]).filter((d) => !isInstalled(d));
  if (missing.length === 0) return [];
  const runner = aptRunner();
  if (runner) {
    const pkgs = missing.map((d) => SYSTEM_DEPS[d].debianPackage);
    log(`test setup: installing Debian packages ${pkgs.join(', ')} (needed by tests)…`);
    const run = (args: string[]): void => {
      const [cmd, ...rest] = [...runner, ...args];
      execFileSync(cmd!, rest, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    };
    try {
      run(['apt-get', 'update', '-qq']);
      run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
    } catch (e) {
      log(`test setup: apt-get failed: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return missing.filter((d) => !isInstalled(d));
}

/**
 * In a test file: true when `dep` is available. Use as `describe.skipIf(!needs('prometheus'))`.
 * The global setup has already printed the loud skip line naming the install command.
 */
export function needs(dep: SystemDep): boolean {
  const missing = (process.env[MISSING_ENV] ?? '').split(',');
  return !missing.includes(dep) && isInstalled(dep);
}
