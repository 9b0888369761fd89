import { describe, expect, it } from 'vitest';
import { decodeMdWsFrame } from '../../src/wire/index.ts';

const frame = (bid: string, ask: string) => `{"t":"2","ts":1700000000,"tn":0,"s":"EURUSD-PERP","b":[{"p":"1.1402","q":5},{"p":${JSON.stringify(bid)},"q":3}],"a":[{"p":${JSON.stringify(ask)},"q":4}]}`;

describe('book prices must be positive (issue 35: -1.1411 and 0 decoded without a word)', () => {
  it('refuses a negative or zero level price, naming the level', () => {
    const neg = decodeMdWsFrame(frame('-1.1411', '1.1405'));
    expect(neg.ok).toBe(false);
    if (!neg.ok) expect(neg.error.message).toBe('$.b[1].p: expected positive price, got "-1.1411"');
    const zero = decodeMdWsFrame(frame('1.1401', '0'));
    expect(zero.ok).toBe(false);
    if (!zero.ok) expect(zero.error.message).toBe('$.a[0].p: expected positive price, got "0"');
    const zeros = decodeMdWsFrame(frame('0.0000', '1.1405'));
    expect(!zeros.ok && zeros.error.path).toBe('$.b[1].p');
  });

  it('still decodes small positive prices', () => {
    expect(decodeMdWsFrame(frame('0.0001', '0.0002')).ok).toBe(true);
  });
});
