import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/errors.ts';
import { flagInt, parseArgs } from '../../src/cli/args.ts';

describe('parseArgs', () => {
  const spec = { valued: ['out', 'port'], boolean: ['quiet'], repeated: ['data'] } as const;

  it('reads valued, boolean, repeated (and comma-separated) flags and positionals', () => {
    const p = parseArgs(['check', '--data', 'a.gz', '--out=dir', '--data=b.gz,c.gz', '--quiet', 'x'], spec);
    expect(p.positional).toEqual(['check', 'x']);
    expect(p.flags.get('out')).toBe('dir');
    expect(p.flags.get('quiet')).toBe(true);
    expect(p.lists.get('data')).toEqual(['a.gz', 'b.gz', 'c.gz']);
  });

  it('names an unknown flag, a missing value and a bad integer', () => {
    expect(() => parseArgs(['--nope'], spec)).toThrow(/unknown flag --nope/);
    expect(() => parseArgs(['--data'], spec)).toThrow(/--data needs a value/);
    expect(() => parseArgs(['--out', '--quiet'], spec)).toThrow(/--out needs a value/);
    const bad = parseArgs(['--port', 'abc'], spec);
    expect(() => flagInt(bad, 'port', 0, 65535)).toThrow(MmError);
    expect(() => flagInt(bad, 'port', 0, 65535)).toThrow(/--port must be an integer in \[0, 65535\], got "abc"/);
  });
});
