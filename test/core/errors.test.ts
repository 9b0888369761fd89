import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, MmError, codeForHttpStatus, errorKind, isRetryable, type ErrorCode } from '../../src/core/errors.ts';

const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');

/** Rows of the code table: `| \`CODE\` | kind | when | action |`. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of DOC.split('\n')) {
    const m = /^\|\s*`([A-Z_]+)`\s*\|\s*([a-z]+)\s*\|(.+)\|(.+)\|\s*$/.exec(line);
    if (!m) continue;
    expect(rows.has(m[1]!), `${m[1]} documented twice`).toBe(false);
    expect(m[3]!.trim().length, `${m[1]}: "when" is empty`).toBeGreaterThan(10);
    expect(m[4]!.trim().length, `${m[1]}: "what to do" is empty`).toBeGreaterThan(10);
    rows.set(m[1]!, m[2]!);
  }
  return rows;
}

describe('docs/errors.md matches the error catalog', () => {
  const doc = documented();
  const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];

  it('documents every catalog code with its kind', () => {
    for (const code of codes) expect(doc.get(code), `${code} missing or wrong kind in docs/errors.md`).toBe(ERROR_CATALOG[code].kind);
  });

  it('documents no code the catalog lacks', () => {
    for (const code of doc.keys()) expect(Object.hasOwn(ERROR_CATALOG, code), `${code} is documented but not in the catalog`).toBe(true);
    expect(doc.size).toBe(codes.length);
  });
});

describe('MmError and status mapping', () => {
  it('carries code, kind, details and retryability', () => {
    const e = new MmError('RATE_LIMITED', 'slow down', { status: 429 });
    expect(e).toBeInstanceOf(Error);
    expect(e.kind).toBe('retryable');
    expect(e.retryable).toBe(true);
    expect(e.details).toEqual({ status: 429 });
    expect(Object.isFrozen(e.details)).toBe(true);
    expect(new MmError('BAD_REQUEST', 'no').retryable).toBe(false);
    expect(errorKind('ILLEGAL_TRANSITION')).toBe('invariant');
    expect(isRetryable('TIMEOUT')).toBe(true);
  });

  it('maps HTTP statuses as documented', () => {
    expect([400, 401, 403, 404, 409, 429, 503, 504, 500, 502, 418].map(codeForHttpStatus)).toEqual([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'NOT_YET_ACKNOWLEDGED',
      'RATE_LIMITED',
      'VENUE_UNAVAILABLE',
      'GATEWAY_TIMEOUT',
      'SERVER_ERROR',
      'SERVER_ERROR',
      'BAD_REQUEST',
    ]);
  });
});
