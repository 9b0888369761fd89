import { MmError } from '../../core/errors.ts';
import type { LineSource, NumberedLine } from './line-source.ts';
import type { RowIssues } from './row-issues.ts';

/**
 * A Tardis-style CSV's rows as split fields with the header's column positions: the first non-empty
 * line is the header, and one lacking a `wanted` column is reported and thrown, naming the file,
 * the line and what the file should have been (`what`, e.g. "Tardis trades").
 * @throws MmError RECORDING_INVALID for a header without a wanted column.
 */
export async function* csvRows(src: LineSource, wanted: readonly string[], what: string, issues: RowIssues): AsyncGenerator<{ readonly f: string[]; readonly col: Record<string, number>; readonly line: number }, void, undefined> {
  let col: Record<string, number> | null = null;
  for await (const { text, line } of src as AsyncIterable<NumberedLine>) {
    if (text.length === 0) continue;
    const f = text.split(',');
    if (col === null) {
      col = Object.fromEntries(f.map((name, i) => [name.trim(), i]));
      const missing = wanted.filter((c) => !(c in col!));
      if (missing.length > 0) {
        issues.report('malformed', src.path, line, `header lacks column(s) ${missing.join(', ')} (got ${text})`);
        throw new MmError('RECORDING_INVALID', `${src.path}:${line}: not a ${what} CSV: missing column(s) ${missing.join(', ')}`, { file: src.path, line });
      }
      continue;
    }
    yield { f, col, line };
  }
}
