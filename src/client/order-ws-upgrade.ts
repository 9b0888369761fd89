/**
 * The order-entry WebSocket's connection contract: the `/orders/ws` upgrade URL and its query
 * (cancel-on-disconnect, account, client heartbeat deadline), and how often we heartbeat.
 */

/** What the upgrade asks of the venue. */
export interface OrderWsUpgradeOptions {
  /** Cancel this connection's orders when it drops (default true). */
  readonly cancelOnDisconnect?: boolean | undefined;
  readonly accountId?: string | undefined;
  /** Ask the venue to close the session without a heartbeat for this long, s (≤ 300; default 30). 0 = do not ask. */
  readonly clientHeartbeatTimeoutS?: number | undefined;
}

/** The heartbeat deadline we ask for, s: whole seconds in [0, 300] (the venue's maximum). */
export const heartbeatTimeoutS = (o: OrderWsUpgradeOptions): number => Math.min(300, Math.max(0, Math.floor(o.clientHeartbeatTimeoutS ?? 30)));

/** Interval between our heartbeats, ms: three per deadline, so one lost or late frame never trips it. */
export const heartbeatEveryMs = (timeoutS: number): number => (timeoutS * 1000) / 3;

/** `ws://host:port/orders/ws?cancel_on_disconnect=...&account_id=...&client_heartbeat_timeout=...`. */
export function orderWsUrl(wsUrl: string, o: OrderWsUpgradeOptions): string {
  const q = new URLSearchParams();
  q.set('cancel_on_disconnect', String(o.cancelOnDisconnect ?? true));
  if (o.accountId !== undefined) q.set('account_id', o.accountId);
  const hb = heartbeatTimeoutS(o);
  if (hb > 0) q.set('client_heartbeat_timeout', String(hb));
  return `${wsUrl.replace(/\/+$/, '')}/orders/ws?${q.toString()}`;
}
