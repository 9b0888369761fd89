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
  /** Rows per kind, expected kinds included. */
  readonly counts = new Map<RowIssueKind, number>();
  readonly examples = new Map<RowIssueKind, RowIssueExample[]>();
  /** Kinds the source is known to produce (information, not errors), with why. */
  readonly #expected = new Map<RowIssueKind, string>();
  /** Contracts an expected row changed in the book, per kind (its effect). */
  readonly #shares = new Map<RowIssueKind, number>();

  constructor(readonly strict: boolean) {}

  /**
   * Declares kinds the source produces by construction (e.g. a depth-limited LOBSTER file's
   * messages about orders and levels it never showed): they are counted as information, with `why`
   * and their effect on the book, not as bad rows, and --strict does not stop on them.
   */
  expect(kinds: readonly RowIssueKind[], why: string): void {
    for (const k of kinds) this.#expected.set(k, why);
  }

  /**
   * Records a bad (or, for an expected kind, a noted) row; `shares`: contracts it changed in the book.
   * @throws MmError RECORDING_INVALID naming file, line and problem when strict (never for expected kinds).
   */
  report(kind: RowIssueKind, file: string, line: number, message: string, shares = 0): void {
    if (this.strict && !this.#expected.has(kind)) throw new MmError('RECORDING_INVALID', `${file}:${line}: ${kind}: ${message} (--strict stops at the first bad row)`, { file, line, kind });
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (shares !== 0) this.#shares.set(kind, (this.#shares.get(kind) ?? 0) + Math.abs(shares));
    const ex = this.examples.get(kind) ?? [];
    if (ex.length < EXAMPLES_PER_KIND) ex.push({ file, line, message });
    this.examples.set(kind, ex);
  }

  /** Total bad rows (expected kinds not counted). */
  get total(): number {
    let n = 0;
    for (const [k, c] of this.counts) if (!this.#expected.has(k)) n += c;
    return n;
  }

  /** Total rows of expected kinds. */
  get noted(): number {
    let n = 0;
    for (const [k, c] of this.counts) if (this.#expected.has(k)) n += c;
    return n;
  }

  /** A human summary of the bad rows: one line per kind with its count and examples. */
  summary(): string[] {
    return this.#lines((k) => !this.#expected.has(k));
  }

  /** A human summary of the expected rows: per kind, its count, its effect on the book, why, examples. */
  notes(): string[] {
    return this.#lines((k) => this.#expected.has(k));
  }

  #lines(pick: (k: RowIssueKind) => boolean): string[] {
    const out: string[] = [];
    for (const [kind, n] of this.counts) {
      if (!pick(kind)) continue;
      const why = this.#expected.get(kind);
      const shares = this.#shares.get(kind);
      out.push(`${kind}: ${n} row(s)${shares !== undefined ? `, ${shares.toLocaleString('en-US')} contracts settled to the source` : ''}${why !== undefined ? ` (${why})` : ''}`);
      for (const e of this.examples.get(kind) ?? []) out.push(`  ${e.file}:${e.line}: ${e.message}`);
    }
    return out;
  }

  /** Counts per kind as a plain object, expected kinds included. */
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** Bad rows per kind (expected kinds left out), for --json's bad_rows. */
  badRows(): Record<string, number> {
    return Object.fromEntries([...this.counts].filter(([k]) => !this.#expected.has(k)));
  }

  /** Expected rows per kind with their effect and why, for --json's expected_rows. */
  expectedRows(): Record<string, { rows: number; contracts_settled: number; why: string }> {
    return Object.fromEntries([...this.counts].filter(([k]) => this.#expected.has(k)).map(([k, n]) => [k, { rows: n, contracts_settled: this.#shares.get(k) ?? 0, why: this.#expected.get(k)! }]));
  }
}
