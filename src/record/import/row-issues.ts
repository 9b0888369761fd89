import { MmError } from '../../core/errors.ts';

/** Kinds of bad input rows an importer reports. */
export type RowIssueKind =
  | 'malformed'
  | 'out-of-order'
  | 'crossed-book'
  | 'unknown-message'
  | 'negative-size'
  | 'off-grid-price'
  | 'fractional-size'
  | 'unknown-order'
  | 'book-mismatch';

/** The first few bad rows of a kind, kept as examples. */
export interface RowIssueExample {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

const EXAMPLES_PER_KIND = 5;

/**
 * Counts bad rows per kind and keeps the first few of each with file and line. In strict mode the
 * first bad row throws instead.
 */
export class RowIssues {
  readonly counts = new Map<RowIssueKind, number>();
  readonly examples = new Map<RowIssueKind, RowIssueExample[]>();

  constructor(readonly strict: boolean) {}

  /**
   * Records a bad row.
   * @throws MmError RECORDING_INVALID naming file, line and problem when strict.
   */
  report(kind: RowIssueKind, file: string, line: number, message: string): void {
    if (this.strict) throw new MmError('RECORDING_INVALID', `${file}:${line}: ${kind}: ${message} (--strict stops at the first bad row)`, { file, line, kind });
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const ex = this.examples.get(kind) ?? [];
    if (ex.length < EXAMPLES_PER_KIND) ex.push({ file, line, message });
    this.examples.set(kind, ex);
  }

  /** Total bad rows. */
  get total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /** A human summary: one line per kind with its count and examples. */
  summary(): string[] {
    const out: string[] = [];
    for (const [kind, n] of this.counts) {
      out.push(`${kind}: ${n} row(s)`);
      for (const e of this.examples.get(kind) ?? []) out.push(`  ${e.file}:${e.line}: ${e.message}`);
    }
    return out;
  }

  /** Counts per kind as a plain object (for --json and reports). */
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
