/**
 * Shortens `xs` to `length` elements in place, keeping its storage for the next pushes. Setting
 * `xs.length = 0` (or far below the capacity) makes V8 release the backing store, so a scratch
 * array cleared that way allocates a new one on its next push: once per event on a hot path.
 */
export function truncate(xs: unknown[], length: number): void {
  while (xs.length > length) xs.pop();
}
