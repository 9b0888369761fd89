import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStrategy } from '../../src/strategy/registry.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-registry-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A minimal strategy module: a name, a params schema (anything with safeParse) and create.
const MODULE = `export default { name: 'kept', params: { safeParse: (x) => ({ success: true, data: x }) }, create: () => ({}) };\n`;

describe('loadStrategy keeps a loaded definition', () => {
  it('serves a strategy module from memory once loaded, without resolving its file again (a sweep thread loads it for every job)', () => {
    // In a plain node + tsx process, as mmbot runs (vitest's own module loader caches differently).
    const script = join(dir, 'run.mts'); // not kept.mts: tsx would take it for kept.mjs
    const file = join(dir, 'kept.mjs');
    writeFileSync(
      script,
      `import { rmSync, writeFileSync } from 'node:fs';\nimport { loadStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/registry.ts'))};\n` +
        `writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(MODULE)});\nconst first = await loadStrategy(${JSON.stringify(file)});\n` +
        `rmSync(${JSON.stringify(file)}); // resolving it again would fail: Cannot find module\n` +
        `const again = await loadStrategy('./kept.mjs', ${JSON.stringify(dir)}).catch((e) => e);\nprocess.stdout.write(again === first ? 'same definition' : String(again).slice(0, 80));\n`,
    );
    expect(execFileSync(process.execPath, [join(ROOT, 'bin/run-ts.js'), script], { encoding: 'utf8' })).toBe('same definition');
  }, 60_000);

  it('does not keep a failure: a module that appears later loads', async () => {
    const file = join(dir, 'later.mjs');
    await expect(loadStrategy(file)).rejects.toThrow(/strategy ".*later\.mjs" failed to load from file:/);
    writeFileSync(file, MODULE.replace("'kept'", "'later'"));
    expect((await loadStrategy(file)).name).toBe('later');
  });
});
