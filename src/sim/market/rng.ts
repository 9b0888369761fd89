import { seededRandomU32 } from '../../core/ulid.ts';

/** A seeded random source with the distributions the synthetic market needs. Deterministic per seed. */
export class Rng {
  readonly #u32: () => number;
  #spare: number | undefined;

  constructor(seed: number) {
    this.#u32 = seededRandomU32(seed);
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.#u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  /** Standard normal (Box–Muller, caching the second value). */
  normal(): number {
    if (this.#spare !== undefined) {
      const s = this.#spare;
      this.#spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.#spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    let u = 0;
    while (u === 0) u = this.uniform();
    return -Math.log(u) * mean;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.uniform() < p;
  }

  /** Log-normal with the given median and sigma of the underlying normal. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/** Derives a per-stream seed from a base seed and a label, so streams stay independent and stable. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

const mix32 = (x: number): number => {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/**
 * A standard normal addressed by (seed, index) instead of drawn in sequence: every path that reads
 * index k of one seed sees the same draw, whatever order paths are generated in (the common factor
 * of correlated underlyings). `index` is a non-negative integer below 2^53.
 */
export function hashNormal(seed: number, index: number): number {
  const lo = index >>> 0;
  const hi = Math.floor(index / 4294967296) >>> 0;
  const k = mix32(mix32(seed ^ 0x27d4eb2f) ^ lo) ^ Math.imul(hi, 0x165667b1);
  const u1 = (mix32(k ^ 0x68e31da4) + 0.5) / 4294967296;
  const u2 = mix32(k ^ 0xb5297a4d) / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
