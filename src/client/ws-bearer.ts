/** Where a token comes from (a TokenManager); `renew` is called after a 401 on the upgrade. */
export interface TokenSource {
  token(): Promise<string>;
  renew(rejected: string | undefined): Promise<string>;
  /** When `token` was obtained and when the venue will consider it expired (epoch ms), if known. */
  validity?(token: string): { readonly obtainedMs: number; readonly expiresAtMs: number } | undefined;
}

/**
 * The bearer-token side of a venue WebSocket upgrade, shared by the order and market-data clients:
 * the Authorization header for the next attempt, and a token renewal when the venue refused the
 * upgrade with 401 (the next attempt then carries a fresh token instead of the rejected one).
 */
export class BearerUpgrade {
  readonly #tokens: TokenSource | undefined;
  #last: string | undefined;

  /** Without a token source the upgrade is unauthenticated (public market data). */
  constructor(tokens: TokenSource | undefined) {
    this.#tokens = tokens;
  }

  /** Upgrade headers: `authorization: Bearer <token>`, or none without a token source. */
  async headers(): Promise<Record<string, string>> {
    if (!this.#tokens) return {};
    this.#last = await this.#tokens.token();
    return { authorization: `Bearer ${this.#last}` };
  }

  /** The token of the last upgrade headers handed out. */
  get last(): string | undefined {
    return this.#last;
  }

  /** When the token of the last headers was obtained and expires, if the source knows. */
  validity(token: string | undefined): { readonly obtainedMs: number; readonly expiresAtMs: number } | undefined {
    return token === undefined ? undefined : this.#tokens?.validity?.(token);
  }

  /** Upgrade headers with a token other than `stale` (renewed when the source still holds `stale`). */
  async freshHeaders(stale: string | undefined): Promise<Record<string, string>> {
    if (!this.#tokens) return {};
    let t = await this.#tokens.token();
    if (t === stale) t = await this.#tokens.renew(stale);
    this.#last = t;
    return { authorization: `Bearer ${t}` };
  }

  /** Called with the HTTP status of a failed upgrade: on 401, renews the token that was refused. */
  refused(httpStatus: number | undefined): void {
    if (httpStatus === 401) void this.#tokens?.renew(this.#last).catch(() => undefined);
  }
}
