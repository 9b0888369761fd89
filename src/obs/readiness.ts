/** The answer `/readyz` serves: ready, or the list of reasons why not. */
export interface Readiness {
  readonly ready: boolean;
  readonly reasons: readonly string[];
}

/** Options of the readiness tracker. */
export interface ReadinessOptions {
  /** Streams that must be connected (default: orders and market-data). */
  readonly streams?: readonly string[];
  /** Symbols whose books must be fresh (empty: no book check). */
  readonly symbols?: readonly string[];
  /** A book not updated for this long is stale (ms; default: no age check, rely on `bookStale`). */
  readonly maxBookAgeMs?: number;
  /** The stream whose disconnect discards the books (default `market-data`). */
  readonly bookStream?: string;
  /** Whether a reconcile must have completed (default true). */
  readonly requireReconciled?: boolean;
}

/**
 * Tracks what makes the bot ready to trade: every stream connected, every symbol's book fresh,
 * the order state reconciled with the venue after the last (re)connect, and the kill switch not
 * engaged. Pure state plus `check(nowMs)`: adapters feed it, the health server asks it.
 */
export class ReadinessTracker {
  readonly #streams: readonly string[];
  readonly #symbols: readonly string[];
  readonly #maxBookAgeMs: number;
  readonly #requireReconciled: boolean;
  readonly #connected = new Map<string, boolean>();
  readonly #bookMs = new Map<string, number>();
  readonly #stale = new Set<string>();
  readonly #bookStream: string;
  #reconciled = false;
  #haltReason: string | null = null;

  constructor(options: ReadinessOptions = {}) {
    this.#streams = options.streams ?? ['orders', 'market-data'];
    this.#symbols = options.symbols ?? [];
    this.#maxBookAgeMs = options.maxBookAgeMs ?? Number.POSITIVE_INFINITY;
    this.#bookStream = options.bookStream ?? 'market-data';
    this.#requireReconciled = options.requireReconciled ?? true;
  }

  /**
   * Records a stream's connection state. A disconnect of the order stream voids the last reconcile;
   * a disconnect of the market-data stream discards the books (a fresh snapshot must follow).
   */
  connection(stream: string, connected: boolean): void {
    this.#connected.set(stream, connected);
    if (stream === 'orders' && !connected) this.#reconciled = false;
    if (stream === this.#bookStream && !connected) {
      this.#bookMs.clear();
      this.#stale.clear();
    }
  }

  /** Records a book update for `symbol` at `tsRecvMs` (epoch ms); a fresh book is not stale. */
  book(symbol: string, tsRecvMs: number): void {
    this.#bookMs.set(symbol, tsRecvMs);
    this.#stale.delete(symbol);
  }

  /** Marks a symbol's book stale (the market-data client saw no frame for too long) or fresh again. */
  bookStale(symbol: string, stale: boolean): void {
    if (stale) this.#stale.add(symbol);
    else this.#stale.delete(symbol);
  }

  /** Marks the order state as reconciled with the venue (or not). */
  reconciled(done: boolean): void {
    this.#reconciled = done;
  }

  /** Sets the halt state: a reason when trading is halted (kill switch), null when running. */
  halted(reason: string | null): void {
    this.#haltReason = reason;
  }

  /** Evaluates readiness at `nowMs` (epoch ms). Reasons are stable strings, one per failing check. */
  check(nowMs: number): Readiness {
    const reasons: string[] = [];
    for (const s of this.#streams) if (this.#connected.get(s) !== true) reasons.push(`${s} stream disconnected`);
    for (const sym of this.#symbols) {
      const ts = this.#bookMs.get(sym);
      if (ts === undefined) reasons.push(`no book yet for ${sym}`);
      else if (this.#stale.has(sym)) reasons.push(`book for ${sym} stale`);
      else if (nowMs - ts > this.#maxBookAgeMs) reasons.push(`book for ${sym} stale (${Math.round(nowMs - ts)} ms > ${this.#maxBookAgeMs} ms)`);
    }
    if (this.#requireReconciled && !this.#reconciled) reasons.push('orders not reconciled');
    if (this.#haltReason !== null) reasons.push(`halted: ${this.#haltReason}`);
    return { ready: reasons.length === 0, reasons };
  }
}
