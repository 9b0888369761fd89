/** A position as the venue books it (`GET /api/positions`). */
export interface VenuePositionRow {
  readonly symbol: string;
  readonly signed_quantity: number;
  readonly signed_cost_basis: string;
  readonly realized_pnl: string;
  readonly timestamp: string | null;
}

/** Minimal REST reads against a venue, for asserting on what the venue itself says. */
export interface VenueRest {
  positions(): Promise<Record<string, number>>;
  /** Every position row with its cost basis, realized PnL and last fill time. */
  positionRows(): Promise<Record<string, VenuePositionRow>>;
  /** How many fills the venue holds for the account in the last day (`total_count`). */
  fillCount(): Promise<number>;
  openOrders(): Promise<readonly { oid: string; s: string; aid: string; p: string; d: string }[]>;
  /** The venue's own best bid and ask for `symbol` (its ticker), null when a side is empty. */
  touch(symbol: string): Promise<{ bid: number | null; ask: number | null }>;
}

const DAY_NS = 86_400_000_000_000n;

/** Logs in with the API key and returns REST readers (positions, open orders). */
export async function venueRest(baseUrl: string, creds: { api_key: string; api_secret: string }): Promise<VenueRest> {
  const auth = await fetch(`${baseUrl}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: creds.api_key, api_secret: creds.api_secret, expiration_seconds: 3600 }),
  });
  if (!auth.ok) throw new Error(`authenticate: HTTP ${auth.status} ${await auth.text()}`);
  const { token } = (await auth.json()) as { token: string };
  const get = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(`GET ${path}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  const positionRows = async (): Promise<Record<string, VenuePositionRow>> => {
    const body = await get<{ positions: VenuePositionRow[] }>('/api/positions');
    return Object.fromEntries(body.positions.map((p) => [p.symbol, p]));
  };
  return {
    async positions() {
      return Object.fromEntries(Object.entries(await positionRows()).map(([s, p]) => [s, p.signed_quantity]));
    },
    positionRows,
    async fillCount() {
      const now = BigInt(Date.now()) * 1_000_000n;
      const body = await get<{ total_count: number }>(`/api/fills?start_timestamp_ns=${now - DAY_NS}&end_timestamp_ns=${now + DAY_NS / 2n}&limit=1`);
      return body.total_count;
    },
    async openOrders() {
      const body = await get<{ orders: { oid: string; s: string; aid: string; p: string; d: string }[] }>('/orders/open-orders?limit=100');
      return body.orders;
    },
    async touch(symbol) {
      const { ticker } = await get<{ ticker: { bp?: string | null; ap?: string | null } }>(`/api/ticker?symbol=${encodeURIComponent(symbol)}`);
      return { bid: ticker.bp == null ? null : Number(ticker.bp), ask: ticker.ap == null ? null : Number(ticker.ap) };
    },
  };
}
