import type { ActionName } from './controller.ts';

/** Per-strategy actions by their path segment (a Map: `constructor`, `__proto__`... are not actions). */
const STRATEGY_ACTIONS: ReadonlyMap<string, ActionName> = new Map([
  ['pause', 'pause'],
  ['resume', 'resume'],
  ['params', 'set'],
  ['flatten', 'flatten'],
]);

/** Actions on the whole bot by path. */
const GLOBAL_ACTIONS: ReadonlyMap<string, ActionName> = new Map([
  ['/api/v1/cancel-all', 'cancel-all'],
  ['/api/v1/kill-switch/trip', 'trip-kill'],
  ['/api/v1/kill-switch/reset', 'reset-kill'],
  ['/api/v1/reload', 'reload'],
]);

/** Longest strategy id echoed back in messages and logs. */
const MAX_SHOWN_CHARS = 80;

/** What a POST path names: an action (and its strategy), or why it names none. */
export type ActionRoute =
  | { readonly ok: true; readonly action: ActionName; readonly target: string | null }
  | { readonly ok: false; readonly status: 400 | 404; readonly message: string };

/**
 * Resolves a POST path (query removed) to an action. Never throws: a malformed `%` escape in the
 * strategy id is a 400, an unknown path or action a 404 (the caller checks the token first).
 */
export function routeAction(path: string): ActionRoute {
  const global = GLOBAL_ACTIONS.get(path);
  if (global !== undefined) return { ok: true, action: global, target: null };
  const m = /^\/api\/v1\/strategies\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return { ok: false, status: 404, message: `no such action: POST ${shown(path)}` };
  const action = STRATEGY_ACTIONS.get(m[2]!);
  if (action === undefined) return { ok: false, status: 404, message: `no such action: ${shown(m[2]!)} (actions: ${[...STRATEGY_ACTIONS.keys()].join(', ')})` };
  let target: string;
  try {
    target = decodeURIComponent(m[1]!);
  } catch {
    return { ok: false, status: 400, message: `malformed percent-encoding in the strategy id: ${shown(m[1]!)}` };
  }
  return { ok: true, action, target };
}

/** A path piece cut to a loggable length (JSON-quoted: control characters cannot forge log lines). */
function shown(s: string): string {
  return JSON.stringify(s.length > MAX_SHOWN_CHARS ? `${s.slice(0, MAX_SHOWN_CHARS)}…` : s);
}
