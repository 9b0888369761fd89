/** Where a token comes from (a TokenManager); `renew` is called after a 401 on the upgrade. */
export interface TokenSource {
  token(): Promise<string>;
  renew(rejected: string | undefined): Promise<string>;
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

  /** Called with the HTTP status of a failed upgrade: on 401, renews the token that was refused. */
  refused(httpStatus: number | undefined): void {
    if (httpStatus === 401) void this.#tokens?.renew(this.#last).catch(() => undefined);
  }
}
