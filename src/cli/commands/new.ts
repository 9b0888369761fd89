import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MmError } from '../../core/errors.ts';
import { flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { DEV_DEPENDENCIES, SAMPLE_RECORDING, strategyProjectFiles } from '../scaffold/strategy-files.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot new strategy <name> [--dir <folder>] [--mmbot <dependency>]

Creates a project of its own for a strategy, outside mmbot's repository: package.json depending on
mmbot, tsconfig.json, src/<name>.ts (one level each side of the mid), test/<name>.test.ts and
backtest.yaml over a copy of the sample recording. Then: cd <name> && npm install && npm run
typecheck && npm test && npm run backtest.

  --dir     the folder to create (default ./<name>); it must not exist or be empty
  --mmbot   the package.json dependency on mmbot (default: file:<this mmbot> when it runs from a
            checkout, else ^<its version>)`;

const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** A checkout is linked by path; an installed mmbot (inside node_modules) by version range. */
function defaultDependency(): string {
  if (PACKAGE_ROOT.split(sep).includes('node_modules')) {
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    return `^${version}`;
  }
  return `file:${PACKAGE_ROOT}`;
}

/** The scaffold's dev tools at the versions mmbot's own package.json lists. */
function devDependencies(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const out: Record<string, string> = {};
  for (const d of DEV_DEPENDENCIES) {
    const spec = pkg.devDependencies?.[d];
    if (spec === undefined) throw new MmError('INVARIANT_BROKEN', `${join(PACKAGE_ROOT, 'package.json')}: devDependencies.${d}: missing (the scaffold lists it)`);
    out[d] = spec;
  }
  return out;
}

/** `mmbot new strategy <name>`: scaffolds a strategy project that backtests out of the box. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.new,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['dir', 'mmbot'] });
    const [kind, name, extra] = p.positional;
    if (kind !== 'strategy') throw new MmError('USAGE', kind === undefined ? 'missing what to create (strategy)' : `cannot create "${kind}": only "strategy"`);
    if (name === undefined) throw new MmError('USAGE', 'missing the strategy name');
    if (extra !== undefined) throw new MmError('USAGE', `unexpected argument "${extra}"`);
    if (!NAME.test(name)) throw new MmError('USAGE', `strategy name "${name}": use lower-case letters, digits and dashes, starting with a letter`);
    const dir = resolve(flagString(p, 'dir') ?? name);
    if (existsSync(dir) && readdirSync(dir).length > 0) throw new MmError('USAGE', `${dir} exists and is not empty`);
    for (const f of strategyProjectFiles(name, flagString(p, 'mmbot') ?? defaultDependency(), devDependencies())) {
      const path = join(dir, f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.contents);
    }
    mkdirSync(join(dir, 'data'), { recursive: true });
    copyFileSync(join(PACKAGE_ROOT, SAMPLE_RECORDING), join(dir, 'data', 'sample.jsonl.gz'));
    process.stdout.write(`created ${dir}\nnext: cd ${dir} && npm install && npm test && npm run backtest\n`);
    return 0;
  },
};
