/** Minimal REST reads against a venue, for asserting on what the venue itself says. */
export interface VenueRest {
  positions(): Promise<Record<string, number>>;
  openOrders(): Promise<readonly { oid: string; s: string; aid: string }[]>;
}

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
  return {
    async positions() {
      const body = await get<{ positions: { symbol: string; signed_quantity: number }[] }>('/api/positions');
      return Object.fromEntries(body.positions.map((p) => [p.symbol, p.signed_quantity]));
    },
    async openOrders() {
      const body = await get<{ orders: { oid: string; s: string; aid: string }[] }>('/orders/open-orders?limit=100');
      return body.orders;
    },
  };
}
