import { afterEach, describe, expect, it, vi } from 'vitest';
import { report } from './scenario-kit.ts';

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('scenario report', () => {
  it('sets the exit code without exiting, so the scenario\'s finally still stops its mmbot sim', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    report('t', [
      { name: 'a', value: '1', target: '1', ok: true },
      { name: 'b', value: '0', target: '1', ok: false },
    ]);
    expect(exit).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(1);
    expect(out.trim().split('\n').at(-1)).toBe('1 criterion(s) failed');
    report('t', [{ name: 'a', value: '1', target: '1', ok: true }]);
    expect(process.exitCode).toBe(0);
  });
});
