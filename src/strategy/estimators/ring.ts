/** A column of an estimator's pending-sample ring (one typed array per field). */
type RingColumn = Float64Array | Int8Array;

/**
 * The column of a full ring grown to twice its slots: the `size` live slots from `head` (each
 * `width` entries wide) laid out from slot 0 in order, so the ring continues with head 0. Shared by
 * the estimators that hold samples until their horizon has passed.
 */
export function grownColumn<T extends RingColumn>(col: T, head: number, size: number, width = 1): T {
  const slots = col.length / width;
  const out = new (col.constructor as new (length: number) => T)(col.length * 2);
  for (let k = 0; k < size; k++) {
    const from = ((head + k) % slots) * width;
    for (let a = 0; a < width; a++) out[k * width + a] = col[from + a]!;
  }
  return out;
}
