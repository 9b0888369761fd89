import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { RowIssues } from '../../../src/record/import/row-issues.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIX = join(ROOT, 'test/fixtures/lobster/amzn');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-lobster-expected-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a LOBSTER file's book mismatches and unknown orders are information, not bad rows", () => {
  it('the first 6,000 AMZN messages import under --strict: 0 bad rows, the 2 book mismatches as expected rows with their effect', async () => {
    const out = join(dir, 'amzn.jsonl.gz');
    const r = await promisify(execFile)(
      process.execPath,
      ['bin/mmbot.js', 'import', 'lobster', '--messages', join(FIX, 'AMZN_2012-06-21_first-6000_message_5.csv.gz'), '--orderbook', join(FIX, 'AMZN_2012-06-21_first-6000_orderbook_5.csv.gz'), '--date', '2012-06-21', '--instrument', join(FIX, 'amzn.yaml'), '--out', out, '--strict', '--json'],
      { cwd: ROOT, timeout: 60_000, killSignal: 'SIGKILL' },
    );
    const summary = JSON.parse(r.stdout) as { bad_rows: unknown; expected_rows: Record<string, { rows: number; contracts_settled: number; why: string }> };
    expect(summary.bad_rows).toEqual({});
    expect(summary.expected_rows['book-mismatch']!.rows).toBe(2);
    expect(summary.expected_rows['book-mismatch']!.contracts_settled).toBeGreaterThan(0);
    expect(summary.expected_rows['book-mismatch']!.why).toMatch(/^expected of a LOBSTER file/);
  }, 60_000);

  it('RowIssues: expected kinds are counted apart, with their effect, and --strict does not stop on them', () => {
    const issues = new RowIssues(true);
    issues.expect(['book-mismatch'], 'the format');
    issues.report('book-mismatch', 'f.csv', 3, 'level 100: messages give 50, the file 20', 30);
    issues.report('book-mismatch', 'f.csv', 9, 'level 101 removed', -15);
    expect(issues.total).toBe(0);
    expect(issues.noted).toBe(2);
    expect(issues.badRows()).toEqual({});
    expect(issues.expectedRows()).toEqual({ 'book-mismatch': { rows: 2, contracts_settled: 45, why: 'the format' } });
    expect(issues.notes()[0]).toBe('book-mismatch: 2 row(s), 45 contracts settled to the source (the format)');
    expect(() => issues.report('malformed', 'f.csv', 4, 'bad')).toThrow('f.csv:4: malformed: bad');
  });
});
