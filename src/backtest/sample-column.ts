/**
 * A growing column of numbers (a report's time samples) held as runs of arithmetic progressions: a
 * value repeated (a quiet stretch, a night between trading days) or a time stepping by the sample
 * interval costs nothing per sample. Exact: a value joins a run only when the run gives it back bit
 * for bit (`Object.is`: NaN and −0 kept), so `toArray()` is the pushed numbers. A run is 20 bytes;
 * a day of 1 s samples of a mid that moves every few seconds takes a third of a plain array, and
 * three days the same as one.
 */
export class SampleColumn {
  #first = new Float64Array(16);
  #step = new Float64Array(16);
  /** Exclusive end index of each run. */
  #end = new Int32Array(16);
  #runs = 0;
  #length = 0;

  /** Number of values pushed. */
  get length(): number {
    return this.#length;
  }

  /** Runs held (the memory used is 20 bytes each). */
  get runs(): number {
    return this.#runs;
  }

  /** Appends `v`. */
  push(v: number): void {
    const r = this.#runs - 1;
    if (r >= 0) {
      const k = this.#length - (r > 0 ? this.#end[r - 1]! : 0);
      if (k === 1) {
        const first = this.#first[r]!;
        const step = v - first;
        if (Object.is(first, v) || (step !== 0 && Number.isFinite(step) && Object.is(first + step, v))) {
          this.#step[r] = Object.is(first, v) ? 0 : step;
          this.#extend(r);
          return;
        }
      } else if (Object.is(this.#valueAt(r, k), v)) {
        this.#extend(r);
        return;
      }
    }
    if (this.#runs === this.#first.length) this.#grow();
    const n = this.#runs++;
    this.#first[n] = v;
    this.#step[n] = 0;
    this.#end[n] = ++this.#length;
  }

  /** The value at index `i` (negative counts from the end), undefined outside the column. */
  at(i: number): number | undefined {
    const j = i < 0 ? this.#length + i : i;
    if (!(j >= 0 && j < this.#length)) return undefined;
    const end = this.#end;
    let lo = 0;
    let hi = this.#runs - 1;
    // The last run first: most reads are of the latest value.
    if (j < (hi > 0 ? end[hi - 1]! : 0)) {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (end[mid]! > j) hi = mid;
        else lo = mid + 1;
      }
    } else lo = hi;
    return this.#valueAt(lo, j - (lo > 0 ? end[lo - 1]! : 0));
  }

  /** The values as a plain array. */
  toArray(): number[] {
    const out: number[] = [];
    let start = 0;
    for (let r = 0; r < this.#runs; r++) {
      const end = this.#end[r]!;
      for (let k = 0; k < end - start; k++) out.push(this.#valueAt(r, k));
      start = end;
    }
    return out;
  }

  #valueAt(r: number, k: number): number {
    const step = this.#step[r]!;
    return step === 0 ? this.#first[r]! : this.#first[r]! + step * k;
  }

  #extend(r: number): void {
    this.#end[r] = this.#end[r]! + 1;
    this.#length++;
  }

  #grow(): void {
    const n = this.#first.length * 2;
    const first = new Float64Array(n);
    const step = new Float64Array(n);
    const end = new Int32Array(n);
    first.set(this.#first);
    step.set(this.#step);
    end.set(this.#end);
    this.#first = first;
    this.#step = step;
    this.#end = end;
  }
}
