/** The plain-text secrets check judges the values as loaded; config objects never inherit (issue 35 #6). */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.ts';
import { fileSuppliedText } from '../../src/config/env.ts';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { MmError } from '../../src/core/errors.ts';

const strategies = await builtinLookup();

const remote = (venue: string): string => `venue:
  mode: remote
  base_url: http://127.0.0.1:9
${venue}
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fixed-spread, params: { halfSpreadTicks: 2, size: 1, maxPosition: 10 } }
monitoring: { enabled: false }
`;


describe('config objects do not inherit (issue 35 #6)', () => {
  it('venue: { __proto__: { api_key, api_secret } } is an unknown key, not credentials read through the prototype', () => {
    const text = remote('  __proto__: { api_key: ak-hidden-0001, api_secret: the-hidden-secret }');
    let err: unknown;
    try {
      parseConfig(text, 'bot.yaml', { strategies });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe('CONFIG_INVALID');
    // Remote mode needs credentials: the ones hidden under __proto__ are not there for the schema.
    expect((err as MmError).message).toBe(`3 problems in bot.yaml:
  bot.yaml: venue.__proto__: "__proto__" is not a config key (it names an object's prototype; nothing may be nested under it)
  bot.yaml: venue.api_key: missing (expected string)
  bot.yaml: venue.api_secret: missing (expected string)`);
    expect((err as MmError).message).not.toContain('the-hidden-secret');
  });

  it('strategy params under __proto__ are refused by path, not silently dropped', () => {
    const text = `venue: { mode: embedded-sim }
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fixed-spread, params: { size: 1, maxPosition: 10, __proto__: { halfSpreadTicks: 3 } } }
`;
    expect(() => parseConfig(text, 'bot.yaml', { strategies })).toThrow('bot.yaml: bot.strategies[0].params.__proto__: "__proto__" is not a config key');
  });
});

describe('literal secrets are judged as loaded (issue 35 #6)', () => {
  it('fileSuppliedText keeps what the file supplies and drops what the environment supplies', () => {
    expect(fileSuppliedText('${AX_API_SECRET}', { AX_API_SECRET: 'from-env' })).toBe('');
    expect(fileSuppliedText('s3cret${X:-}', {})).toBe('s3cret');
    expect(fileSuppliedText('${X:-s3cret}', {})).toBe('s3cret');
    expect(fileSuppliedText('${X:-s3cret}', { X: 'env' })).toBe('');
    expect(fileSuppliedText('${MMBOT_CONTROL_TOKEN:-}', {})).toBe('');
    expect(fileSuppliedText('a$${b}', {})).toBe('a${b}');
  });

  it.each([
    ['a literal with an empty reference appended', 'api_key: "ak${X:-}"\n  api_secret: "s3cret${X:-}"', {}],
    ['a literal fallback', 'api_key: "${AK:-ak-file}"\n  api_secret: "${AS:-s3cret-in-file}"', {}],
    ['a literal beside an env value', 'api_key: "${AK}-x"\n  api_secret: "pre-${AS}"', { AK: 'ak', AS: 'env-part' }],
  ])('%s is recorded as a literal secret', (_what, venue, env) => {
    const c = parseConfig(remote(`  ${venue}`), 'bot.yaml', { env, strategies });
    expect(c.source.literalSecrets).toEqual(['venue.api_key', 'venue.api_secret']);
  });

  it('pure references (and a fallback the environment overrides) are not literal', () => {
    const c = parseConfig(remote('  api_key: "${AK}"\n  api_secret: "${AS:-unused-default}"'), 'bot.yaml', { env: { AK: 'ak', AS: 'env-secret' }, strategies });
    expect(c.source.literalSecrets).toBeUndefined();
  });
});
