import { userInfo, hostname } from 'node:os';
import { MmError } from '../../core/errors.ts';

/** Where `mmbot status` / `mmbot ctl` look by default: the demo's monitoring server. */
export const DEFAULT_CONSOLE_URL = 'http://127.0.0.1:9464';

/** The env variable the CLI reads the control token from. */
export const TOKEN_ENV = 'MMBOT_CONTROL_TOKEN';

/** A reply of the control API. */
export interface ApiReply {
  readonly status: number;
  readonly body: { readonly ok?: boolean; readonly message?: string; readonly [k: string]: unknown };
}

function actor(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return 'mmbot-ctl';
  }
}

/**
 * Calls the control API at `baseUrl` (GET without a body, POST with a JSON body), with the token
 * when given and the caller's user@host as the actor.
 * @throws MmError NETWORK_ERROR when nothing answers (naming the URL and the --url flag).
 */
export async function callApi(baseUrl: string, method: 'GET' | 'POST', path: string, token: string | undefined, body?: unknown): Promise<ApiReply> {
  const url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        'x-mmbot-actor': actor(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
    throw new MmError('NETWORK_ERROR', `no mmbot daemon answers at ${baseUrl} (${cause}); is it running, with monitoring and monitoring.control enabled? (--url to point elsewhere)`, { url });
  }
  const text = await res.text();
  let parsed: ApiReply['body'];
  try {
    parsed = JSON.parse(text) as ApiReply['body'];
  } catch {
    parsed = { ok: false, message: `${res.status} ${res.statusText}: ${text.slice(0, 200)}` };
  }
  return { status: res.status, body: parsed };
}
