import { resolveAccount, requirePermission } from '../server/access.ts';
import { HttpError, ok, type Router } from '../server/http-kit.ts';
import { parseRewardQuery, rewardAccruals } from './accruals-query.ts';
import type { RewardService } from './reward-service.ts';

/** Registers `GET /api/mmlp/v2/reward-accruals`. */
export function registerRewardRoutes(router: Router, svc: RewardService): void {
  router.get('/api/mmlp/v2/reward-accruals', (ctx) => {
    const access = resolveAccount(ctx.venue, ctx.session!, ctx.query.get('account_id') ?? undefined);
    requirePermission(access, 'can_read');
    const q = parseRewardQuery(ctx.query);
    if (!q.ok) throw new HttpError(400, q.error);
    const rows = svc.program.ledger.forAccount(access.accountId);
    return ok(rewardAccruals(rows, q.value, ctx.venue.clock.nowMs()));
  });
}
