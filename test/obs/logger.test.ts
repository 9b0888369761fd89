import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED, redactSecrets } from '../../src/obs/logger.ts';

/** A destination collecting written chunks. */
function sink(): { stream: Writable; text: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  const text = (): string => chunks.join('');
  return { stream, text, lines: () => text().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes JSON lines with a level label, name and bindings', () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, pretty: false, name: 'mmbot', bindings: { run: 'r1' } });
    log.info({ n: 1 }, 'hello');
    const [line] = out.lines();
    expect(line).toMatchObject({ level: 'info', name: 'mmbot', run: 'r1', n: 1, msg: 'hello' });
    expect(typeof line!['time']).toBe('number');
  });

  it('redacts secrets by path, at the root and nested', () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, pretty: false });
    log.info(
      {
        api_secret: 'root-secret',
        config: { venue: { api_key: 'k', api_secret: 's', base_url: 'https://x' } },
        req: { headers: { authorization: 'Bearer abc' } },
        auth: { token: 'tok' },
      },
      'secrets',
    );
    const text = out.text();
    for (const secret of ['root-secret', '"k"', '"s"', 'Bearer abc', 'tok"']) expect(text).not.toContain(secret);
    const [line] = out.lines();
    expect(line).toMatchObject({
      api_secret: REDACTED,
      config: { venue: { api_key: REDACTED, api_secret: REDACTED, base_url: 'https://x' } },
      req: { headers: { authorization: REDACTED } },
      auth: { token: REDACTED },
    });
  });

  it('child loggers carry their bindings and still redact', () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, pretty: false }).child({ symbol: 'EURUSD-PERP' });
    log.warn({ token: 't0k3n' }, 'child');
    const [line] = out.lines();
    expect(line).toMatchObject({ level: 'warn', symbol: 'EURUSD-PERP', token: REDACTED });
  });

  it('respects the level', () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, pretty: false, level: 'warn' });
    log.info('dropped');
    log.error('kept');
    expect(out.lines().map((l) => l['msg'])).toEqual(['kept']);
  });

  it('pretty mode: info lines are the message, warnings add their fields on one line, redacted', () => {
    const out = sink();
    const log = createLogger({ destination: out.stream, pretty: true, isTty: false });
    log.info({ qty: 3 }, 'quoted');
    log.warn({ api_secret: 'nope', reason: 'reset' }, 'order stream down');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/INFO: quoted$/);
    expect(lines[1]).toContain('WARN: order stream down');
    expect(lines[1]).toContain('"reason":"reset"');
    expect(lines[1]).toContain(`"api_secret":"${REDACTED}"`);
    expect(out.text()).not.toContain('nope');
  });

  it('pretty mode at debug shows every field', () => {
    const out = sink();
    createLogger({ destination: out.stream, pretty: true, isTty: false, level: 'debug' }).debug({ symbol: 'EURUSD-PERP' }, 'detail');
    expect(out.text()).toContain('DEBUG: detail');
    expect(out.text()).toContain('symbol: "EURUSD-PERP"');
  });

  it("pretty 'auto' follows the TTY flag", () => {
    const tty = sink();
    createLogger({ destination: tty.stream, pretty: 'auto', isTty: true }).info('a');
    expect(tty.text().startsWith('{')).toBe(false);
    const pipe = sink();
    createLogger({ destination: pipe.stream, pretty: 'auto', isTty: false }).info('a');
    expect(pipe.lines()[0]).toMatchObject({ msg: 'a' });
  });
});

describe('redactSecrets', () => {
  it('copies a value with secret fields replaced, leaving the input alone', () => {
    const input = { venue: { api_secret: 's', base_url: 'u' }, list: [{ token: 't' }] };
    expect(redactSecrets(input)).toEqual({ venue: { api_secret: REDACTED, base_url: 'u' }, list: [{ token: REDACTED }] });
    expect(input.venue.api_secret).toBe('s');
  });
});
