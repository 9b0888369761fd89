import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackHost } from '../../obs/host-check.ts';

/** Why a request may not act (or read). */
export type AuthFailure = 'acting-disabled' | 'missing-token' | 'wrong-token';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * Checks `Authorization: Bearer <token>` against the configured token in constant time. An empty
 * configured token refuses everyone ('acting-disabled'). Returns null when allowed.
 */
export function checkBearer(req: IncomingMessage, token: string): AuthFailure | null {
  if (token === '') return 'acting-disabled';
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  if (!m) return 'missing-token';
  return timingSafeEqual(digest(m[1]!), digest(token)) ? null : 'wrong-token';
}

/** The 401 message for a failure (never echoes what was sent). */
export function authMessage(f: AuthFailure): string {
  switch (f) {
    case 'acting-disabled':
      return 'acting is disabled: monitoring.control.token is empty (set MMBOT_CONTROL_TOKEN before starting the daemon)';
    case 'missing-token':
      return 'this needs the control token: send "Authorization: Bearer <token>" (mmbot ctl reads MMBOT_CONTROL_TOKEN)';
    case 'wrong-token':
      return 'wrong control token';
  }
}

/** Who sent a request, for the action log: the peer address and the client's self-declared actor. */
export function actorOf(req: IncomingMessage): string {
  const raw = req.headers['x-mmbot-actor'];
  const declared = typeof raw === 'string' ? raw.replace(/[^\w@.:-]/g, '').slice(0, 64) : '';
  const peer = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
  return declared ? `${declared} (${peer})` : peer;
}

/**
 * Whether console reads need the token: when the config says so, and always when the server is
 * bound beyond loopback (state holds positions and order ids).
 */
export function readsNeedToken(readsRequireToken: boolean, bindHost: string): boolean {
  return readsRequireToken || !isLoopbackHost(bindHost);
}

/**
 * The read guard of a server without the console (monitoring.control.enabled false): when reads
 * need the token, `/metrics` answers 401 without it; the console's routes count and log theirs.
 */
export function bearerReadGuard(token: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const f = checkBearer(req, token);
    if (f === null) return true;
    const body = JSON.stringify({ ok: false, message: authMessage(f === 'acting-disabled' ? 'missing-token' : f) });
    res.writeHead(401, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), 'www-authenticate': 'Bearer' });
    res.end(body);
    return false;
  };
}
