/**
 * The first pair of level indices (0-based from `from`) at which a side lists the same price, or
 * null; the prices are `values[(from + i) * stride]` for `count` levels. A side whose prices are
 * strictly monotonic (as the writer sorts them) has none: checked in one pass.
 */
export function repeatedPrice(values: ArrayLike<number>, from = 0, count = values.length, stride = 1): [number, number] | null {
  let up = true;
  let down = true;
  for (let i = 1; i < count; i++) {
    const a = values[(from + i - 1) * stride]!;
    const b = values[(from + i) * stride]!;
    if (b <= a) up = false;
    if (b >= a) down = false;
  }
  if (up || down) return null;
  for (let j = 1; j < count; j++) for (let i = 0; i < j; i++) if (values[(from + i) * stride] === values[(from + j) * stride]) return [i, j];
  return null;
}
