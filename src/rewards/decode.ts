import { err, ok, type Result } from '../core/result.ts';
import type { WireRewardAccrualsResponse } from '../wire/index.ts';

/** Where and why a reward body did not match the wire shape. */
export interface RewardDecodeError {
  readonly path: string;
  readonly message: string;
}

type R<T> = Result<T, RewardDecodeError>;

const fail = (path: string, expected: string, got: unknown): R<never> =>
  err({ path, message: `${path}: expected ${expected}, got ${JSON.stringify(got)?.slice(0, 80) ?? String(got)}` });

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEC = /^-?[0-9]+(\.[0-9]+)?$/;

function fields(v: unknown, path: string, spec: Record<string, 'string' | 'decimal' | 'int'>): R<Record<string, unknown>> {
  if (!isObj(v)) return fail(path, 'an object', v);
  for (const [k, kind] of Object.entries(spec)) {
    const x = v[k];
    const p = `${path}.${k}`;
    if (kind === 'int' && !(typeof x === 'number' && Number.isInteger(x) && x >= 0)) return fail(p, 'a non-negative integer', x);
    if (kind === 'string' && typeof x !== 'string') return fail(p, 'a string', x);
    if (kind === 'decimal' && !(typeof x === 'string' && DEC.test(x))) return fail(p, 'a decimal string', x);
  }
  return ok(v);
}

const ACCRUAL = {
  id: 'string',
  epoch_start_ts: 'string',
  epoch_end_ts: 'string',
  symbol: 'string',
  raw_reward_usd: 'decimal',
  cap_adjustment_usd: 'decimal',
  final_accrued_usd: 'decimal',
  account_share: 'decimal',
  payout_status: 'string',
} as const;

/**
 * Decodes a `GET /api/mmlp/v2/reward-accruals` body; never throws. Errors name the JSON path.
 * Unknown payout statuses are kept as `{ unknown: raw }` (mapped later).
 */
export function decodeRewardAccrualsBody(v: unknown): R<WireRewardAccrualsResponse> {
  const top = fields(v, '$', { limit: 'int', offset: 'int', total_count: 'int' });
  if (!top.ok) return top;
  const o = top.value;
  if (!Array.isArray(o['accruals'])) return fail('$.accruals', 'an array', o['accruals']);
  for (let i = 0; i < o['accruals'].length; i++) {
    const r = fields(o['accruals'][i], `$.accruals[${i}]`, ACCRUAL);
    if (!r.ok) return r;
  }
  const s = fields(o['summary'], '$.summary', { accrued_today_usd: 'decimal', awaiting_approval_usd: 'decimal', paid_this_month_usd: 'decimal', retained_usd: 'decimal' });
  if (!s.ok) return s;
  if (!Array.isArray(o['trend'])) return fail('$.trend', 'an array', o['trend']);
  for (let i = 0; i < o['trend'].length; i++) {
    const r = fields(o['trend'][i], `$.trend[${i}]`, { epoch_day: 'string', symbol: 'string', accrued_usd: 'decimal', paid_usd: 'decimal' });
    if (!r.ok) return r;
  }
  if (!Array.isArray(o['symbols']) || !o['symbols'].every((x) => typeof x === 'string')) return fail('$.symbols', 'an array of strings', o['symbols']);
  const w = fields(o['window'], '$.window', { min_day: 'string', max_day: 'string' });
  if (!w.ok) return w;
  const accruals = (o['accruals'] as Record<string, unknown>[]).map((a) => {
    const st = a['payout_status'] as string;
    return { ...a, payout_status: ['accrued', 'awaiting', 'approved', 'paid', 'retained'].includes(st) ? st : { unknown: st } };
  });
  return ok({ ...o, accruals } as unknown as WireRewardAccrualsResponse);
}
