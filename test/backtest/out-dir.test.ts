import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultOutDir } from '../../src/cli/commands/backtest.ts';

const root = mkdtempSync(join(tmpdir(), 'mmbot-out-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('defaultOutDir', () => {
  it('numbers from 1 when the parent does not exist yet (a fresh clone has no backtests/), then 2', () => {
    const parent = join(root, 'backtests');
    const start = Date.UTC(2026, 10, 18, 15, 56, 2);
    expect(defaultOutDir(parent, start)).toBe(join(parent, 'backtest-20261118T155602Z-1'));
    expect(defaultOutDir(parent, start)).toBe(join(parent, 'backtest-20261118T155602Z-2'));
  });
});
