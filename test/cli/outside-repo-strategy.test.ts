import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// A user's own project, outside the repo: mmbot installed from this checkout as a `file:`
// dependency (npm links it, no network), the strategy importing `mmbot` by name.
const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const MMBOT = join(ROOT, 'bin/mmbot.js');
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'mmbot-user-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const npm = (cwd: string, ...args: string[]) => run('npm', [...args], { cwd, timeout: 120_000 });
const install = (cwd: string) => npm(cwd, 'install', '--offline', '--no-audit', '--no-fund', '--loglevel=error');

/**
 * Puts `name` (and what it depends on) from mmbot's own install into the project's node_modules, as
 * npm would fetch it: the tests run offline, and the scaffold's dev tools are not in npm's cache. npm
 * then finds them installed at a version that satisfies the spec and leaves them.
 */
function seedFromMmbot(dir: string, name: string): void {
  const from = join(ROOT, 'node_modules', name);
  cpSync(from, join(dir, 'node_modules', name), { recursive: true, dereference: true });
  const deps = (JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  for (const d of Object.keys(deps)) seedFromMmbot(dir, d);
}

/** The strategies guide's "Writing a strategy" example, exactly as a user copies it. */
function readmeStrategy(): string {
  const guide = readFileSync(join(ROOT, 'docs/guides/strategies.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Writing a strategy'));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('docs/guides/strategies.md: no ts block under "Writing a strategy"');
  return m[1]!;
}

const backtestYaml = `venue: { mode: embedded-sim }
bot:
  strategies:
    - { id: mine, symbol: EURUSD-PERP, strategy: ./my-quoter.ts, params: { halfSpreadTicks: 1, size: 100 } }
  fee_rates: { maker: 0, taker: 0.0002 }
risk: { max_position: 2000, max_order_qty: 500, max_open_orders: 10 }
monitoring: { enabled: false }
backtest: { data: [sample.jsonl.gz], out_dir: backtests }
`;

const fillsOf = (stdout: string): number => Number(/fills (\d+)/.exec(stdout)?.[1] ?? NaN);

describe('a strategy written outside the repo', () => {
  it.each([
    ['with "type": "module"', { type: 'module' }],
    ['without a "type" (Node reads the .ts as CommonJS)', {}],
  ])('the README example backtests from its own folder, %s', async (_label, extra) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-bot', private: true, ...extra, dependencies: { mmbot: `file:${ROOT}` } }));
    writeFileSync(join(dir, 'my-quoter.ts'), readmeStrategy());
    writeFileSync(join(dir, 'bt.yaml'), backtestYaml);
    copyFileSync(join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz'), join(dir, 'sample.jsonl.gz'));
    await install(dir);
    const { stdout } = await run(join(dir, 'node_modules/.bin/mmbot'), ['backtest', '--config', 'bt.yaml', '--out', 'out'], { cwd: dir, timeout: 120_000 });
    expect(stdout).toContain('report:');
    expect(fillsOf(stdout)).toBeGreaterThan(100);
  }, 180_000);

  it('`mmbot new strategy` scaffolds a project whose typecheck, test and backtest pass out of the box', async () => {
    const parent = tempDir();
    const created = await run(process.execPath, [MMBOT, 'new', 'strategy', 'edge-quoter'], { cwd: parent });
    const dir = join(parent, 'edge-quoter');
    expect(created.stdout).toContain(`created ${dir}`);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ mmbot: `file:${ROOT}` });
    // The project compiles with the tools mmbot is checked with (mmbot lists typescript 5.9, @types/node ^20.19.43).
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
    expect(pkg.devDependencies).toEqual({ typescript: own.typescript, '@types/node': own['@types/node'] });
    expect(pkg.scripts.typecheck).toBe('tsc -p tsconfig.json');
    // The test builds its instrument with the exported helper, not a cast that hides missing fields.
    const testText = readFileSync(join(dir, 'test/edge-quoter.test.ts'), 'utf8');
    expect(testText).toContain("makeInstrument({ symbol: 'EURUSD-PERP', tickSize: '0.0001' })");
    expect(testText).not.toContain('as unknown as');
    for (const d of Object.keys(pkg.devDependencies)) seedFromMmbot(dir, d);
    await install(dir);
    const checked = await npm(dir, 'run', 'typecheck'); // rejects (exit 2) on any type error
    expect(checked.stderr).toBe('');
    const tested = await npm(dir, 'test');
    expect(tested.stdout).toMatch(/# pass 2\n# fail 0/);
    const bt = await npm(dir, 'run', 'backtest');
    expect(bt.stdout).toContain('report:');
    expect(fillsOf(bt.stdout)).toBeGreaterThan(100);
  }, 240_000);

  it('refuses a bad name and a non-empty folder with a usage error', async () => {
    const parent = tempDir();
    const bad = await run(process.execPath, [MMBOT, 'new', 'strategy', 'My Quoter'], { cwd: parent }).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain('strategy name "My Quoter": use lower-case letters');
    writeFileSync(join(parent, 'keep.txt'), 'x');
    const busy = await run(process.execPath, [MMBOT, 'new', 'strategy', 'x', '--dir', parent], { cwd: parent }).catch((e: { code: number; stderr: string }) => e);
    expect(busy).toMatchObject({ code: 2 });
    expect((busy as { stderr: string }).stderr).toContain('exists and is not empty');
  }, 60_000);
});
