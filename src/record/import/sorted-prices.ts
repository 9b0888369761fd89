/**
 * Binary search in prices kept best first (descending for bids, ascending for asks): the index of
 * `p`, or where it would be inserted.
 */
export function priceIndex(prices: readonly number[], p: number, isBid: boolean): number {
  let lo = 0;
  let hi = prices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isBid ? prices[mid]! > p : prices[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
