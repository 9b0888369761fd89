/** `mmbot ctl` argument handling: names inherited from Object.prototype are usage errors (issue 35 #7). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAssignments } from '../../../src/cli/commands/ctl.ts';
import { main } from '../../../src/cli/main.ts';

afterEach(() => vi.restoreAllMocks());

describe('mmbot ctl: inherited names are no actions (issue 35 #7)', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('ctl %s: unknown action, exit 2, no network call', async (action) => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    const fetched = vi.spyOn(globalThis, 'fetch');
    // Port 1 answers nothing: before the fix this was "no mmbot daemon answers" and exit 1.
    expect(await main(['ctl', action, '--url', 'http://127.0.0.1:1'])).toBe(2);
    expect(fetched).not.toHaveBeenCalled();
    expect(err.join('')).toContain(`USAGE: unknown action "${action}"`);
  });

  it('set __proto__=… is an own parameter (the schema refuses it by name), not a prototype swap', () => {
    const out = parseAssignments(['__proto__={"halfSpreadBps":1}', 'a=2']);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"halfSpreadBps":1},"a":2}');
  });
});
