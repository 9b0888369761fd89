import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/strategies.ts';

/** Runs the command capturing stdout. */
async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await command.run(args), out };
  } finally {
    spy.mockRestore();
  }
}

describe('mmbot strategies', () => {
  it('--json lists every built-in and overlay with parameter types, defaults, bounds and descriptions', async () => {
    const { code, out } = await run(['--json']);
    expect(code).toBe(0);
    const l = JSON.parse(out);
    expect(l.strategies.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['fixed-spread', 'avellaneda-stoikov', 'glft']));
    expect(l.overlays.map((o: { kind: string }) => o.kind)).toEqual(['funding-carry', 'reward-aware', 'volatility', 'toxicity']);
    const glft = l.strategies.find((s: { name: string }) => s.name === 'glft');
    const p = (name: string) => glft.params.find((x: { name: string }) => x.name === name);
    expect(p('size')).toMatchObject({ type: 'integer', required: true, constraints: ['> 0', '≤ 1000000000'] });
    expect(p('riskAversion')).toMatchObject({ type: 'number', required: false, default: 1, constraints: ['> 0', '≤ 1000'] });
    expect(p('edgeGuard')).toMatchObject({ default: 'widen' });
    expect(p('lossFeedback')).toBeUndefined();
    expect(p('minSpreadShare')).toMatchObject({ default: 0.5 });
    expect(p('fairValue')).toMatchObject({ type: 'mid|weighted-mid|microprice', default: 'mid' });
    expect(p('gamma').description).toContain('1/(tick·lot)');
    // Every parameter of every entry is documented.
    for (const e of [...l.strategies, ...l.overlays]) for (const x of e.params) expect(x.description, `${e.name ?? e.kind}.${x.name}`).not.toBe('');
    const reward = l.overlays.find((o: { kind: string }) => o.kind === 'reward-aware');
    expect(reward.params.find((x: { name: string }) => x.name === 'poolUsdPerDay')).toMatchObject({ required: true });
    expect(reward.params.some((x: { name: string }) => x.name === 'kind')).toBe(false);
  });

  it('prints a table by default and rejects stray arguments', async () => {
    const { out } = await run([]);
    expect(out).toMatch(/^ {2}glft: /m);
    expect(out).toMatch(/^ {4}maxPosition +integer > 0 ≤ 1000000000 +required/m);
    expect(out).toMatch(/^ {2}funding-carry: /m);
    await expect(command.run(['x'])).rejects.toThrow(/unexpected argument/);
  });
});
