/**
 * Guéant–Lehalle–Fernandez-Tapia (2013, Theorem 3.1 and §4) with the inventory bounded to
 * [−Q, Q]: the exact asymptotic (T − t → ∞) quotes, of which the c₁/c₂ closed form is the
 * continuous approximation. With ξ = γ, v(t) = exp(−M(T − t))·1 where M is tridiagonal,
 * M_qq = α·q² − k·μ·q (α = ½kγσ², μ the drift) and M_q,q±1 = −η (η = A·(1 + γ/k)^−(1 + k/γ)); as
 * T − t → ∞ the ratios of v are those of the ground state f⁰ of M (the eigenvector of its smallest
 * eigenvalue), and
 *   δᵇ(q) = (1/k)·ln(f⁰_q / f⁰_q+1) + (1/γ)·ln(1 + γ/k),  no bid at q = Q,
 *   δᵃ(q) = (1/k)·ln(f⁰_q / f⁰_q−1) + (1/γ)·ln(1 + γ/k),  no ask at q = −Q.
 * The skew is therefore inventory-dependent: close to linear near the centre, steepening toward the
 * bounds, where the growing side stops. Units as in glft.ts (ticks, lots, seconds).
 */

/** Inventory grid and ground-state log ratios; reused across refits (no allocation once sized). */
export class GlftBoundedSolution {
  /** Grid nodes qᵢ = −Q + i, i = 0..n−1 (Q may be fractional: n = ⌊2Q⌋ + 1). */
  #n = 0;
  #qMax = 0;
  /** L[i] = ln(f⁰ᵢ / f⁰ᵢ₊₁), i = 0..n−2. */
  #ratio = new Float64Array(0);
  /** ln f⁰ᵢ − ln f⁰₀ (prefix sums of −L). */
  #lnf = new Float64Array(0);
  #d = new Float64Array(0);
  #k = Number.NaN;
  #base = Number.NaN;

  /**
   * Solves for `qMax` lots of inventory bound, σ in ticks/√s, A in 1/s, k in 1/tick, γ in
   * 1/(tick·lot), drift μ in ticks/s. Returns false (and keeps nothing usable) on bad inputs or a
   * grid beyond `maxNodes`.
   */
  solve(qMax: number, sigma: number, aPerS: number, kPerTick: number, gamma: number, driftPerS = 0, maxNodes = 4001): boolean {
    this.#n = 0;
    if (!(qMax >= 1) || !(sigma > 0) || !(aPerS > 0) || !(kPerTick > 0) || !(gamma > 0) || !Number.isFinite(driftPerS)) return false;
    const n = Math.floor(2 * qMax + 1e-9) + 1;
    if (n > maxNodes) return false;
    if (this.#d.length < n) {
      this.#d = new Float64Array(n);
      this.#ratio = new Float64Array(n);
      this.#lnf = new Float64Array(n);
    }
    const alpha = 0.5 * kPerTick * gamma * sigma * sigma;
    const eta = aPerS * Math.pow(1 + gamma / kPerTick, -(1 + kPerTick / gamma));
    if (!(eta > 0) || !Number.isFinite(alpha)) return false;
    const d = this.#d;
    let dMin = Infinity;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const q = -qMax + i;
      d[i] = alpha * q * q - kPerTick * driftPerS * q;
      if (d[i]! < dMin) {
        dMin = d[i]!;
        m = i;
      }
    }
    const lambda = smallestEigenvalue(d, n, eta, dMin);
    if (!Number.isFinite(lambda)) return false;
    // Just below λ₀ every pivot of M − λ is positive from either end: the ratio recurrences below
    // are then continued fractions for the solution that decays toward each bound (stable).
    const lam = lambda - 1e-12 * Math.max(1, Math.abs(lambda), eta);
    const L = this.#ratio;
    // From the bottom: s = f_i / f_{i+1} = η / (d_i − λ − η·s_{i−1}).
    let s = 0;
    for (let i = 0; i < m; i++) {
      s = eta / (d[i]! - lam - eta * s);
      L[i] = Math.log(s);
    }
    // From the top: r = f_i / f_{i−1} = η / (d_i − λ − η·r_{i+1}); then L[i−1] = −ln r.
    let r = 0;
    for (let i = n - 1; i > m; i--) {
      r = eta / (d[i]! - lam - eta * r);
      L[i - 1] = -Math.log(r);
    }
    const lnf = this.#lnf;
    lnf[0] = 0;
    for (let i = 0; i < n - 1; i++) {
      if (!Number.isFinite(L[i]!)) return false;
      lnf[i + 1] = lnf[i]! - L[i]!;
    }
    this.#n = n;
    this.#qMax = qMax;
    this.#k = kPerTick;
    this.#base = Math.log1p(gamma / kPerTick) / gamma;
    return true;
  }

  /** True after a successful `solve`. */
  get ready(): boolean {
    return this.#n > 0;
  }

  /** ln f⁰ at the fractional node position x (0..n−1), relative to node 0, linearly interpolated. */
  #lnF(x: number): number {
    const i = Math.min(Math.floor(x), this.#n - 1);
    const v = this.#lnf[i]!;
    return i < this.#n - 1 ? v - (x - i) * this.#ratio[i]! : v;
  }

  /**
   * Bid and ask depths (ticks from the fair value) at inventory `q` lots: +Infinity for a side whose
   * fill would take the inventory past ±Q (that side is not quoted).
   */
  depths(q: number, out: { bidDepth: number; askDepth: number }): { bidDepth: number; askDepth: number } {
    const x = q + this.#qMax;
    const last = this.#n - 1;
    if (!(this.#n > 0) || Number.isNaN(x)) {
      out.bidDepth = Number.NaN;
      out.askDepth = Number.NaN;
      return out;
    }
    const xc = Math.min(last, Math.max(0, x));
    const here = this.#lnF(xc);
    out.bidDepth = x + 1 > last + 1e-9 ? Infinity : (here - this.#lnF(xc + 1)) / this.#k + this.#base;
    out.askDepth = x - 1 < -1e-9 ? Infinity : (here - this.#lnF(xc - 1)) / this.#k + this.#base;
    return out;
  }
}

/**
 * Smallest eigenvalue of the symmetric tridiagonal matrix with diagonal d[0..n−1] and off-diagonal
 * −η, by bisection on the Sturm count (negative pivots of the LDLᵀ of M − x) between the Gershgorin
 * bound dMin − 2η and dMin (the Rayleigh quotient at the diagonal's minimum).
 */
export function smallestEigenvalue(d: Float64Array, n: number, eta: number, dMin: number): number {
  let lo = dMin - 2 * eta;
  let hi = dMin;
  const e2 = eta * eta;
  for (let it = 0; it < 200 && hi - lo > 1e-15 * Math.max(1, Math.abs(lo), Math.abs(hi)); it++) {
    const x = 0.5 * (lo + hi);
    let p = 1;
    let neg = 0;
    for (let i = 0; i < n; i++) {
      p = d[i]! - x - (i > 0 ? e2 / p : 0);
      if (p === 0) p = -1e-300;
      if (p < 0) neg++;
    }
    if (neg > 0) hi = x;
    else lo = x;
  }
  return 0.5 * (lo + hi);
}

