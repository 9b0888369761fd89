import type { RestClient } from '../../client/index.ts';
import type { VenueReads } from '../../engine/index.ts';
import type { RewardRestPort } from '../../rewards/rest-source.ts';

/** The daemon's periodic REST reads, each request sent through the engine's rate-aware executor. */
export interface BudgetedRest {
  /** For the funding pollers and the index poller (paged reads: every page is one budgeted request). */
  readonly pollers: Pick<RestClient, 'allFundingRates' | 'allFundingTransactions' | 'underlyingPrices'>;
  /** For the reward tracker. */
  readonly rewards: RewardRestPort;
}

/**
 * Wraps the REST client so the daemon's pollers (funding rates and payments, index prices, reward
 * accruals) share the venue budget with order entry (issue 23): every request waits for the
 * executor (cancels first, then places/replaces, then reads; the learned rate), instead of going
 * to the venue beside it. The paging helpers (`allFundingRates`...) are the client's own, run on an
 * object whose page methods are the budgeted ones (they call only those public methods).
 */
export function budgetedRest(rest: RestClient, reads: VenueReads): BudgetedRest {
  const pollers = Object.create(rest) as RestClient;
  pollers.fundingRates = (q) => reads.read('funding', null, () => rest.fundingRates(q));
  pollers.fundingTransactions = (q) => reads.read('funding', null, () => rest.fundingTransactions(q));
  pollers.underlyingPrices = (q) => reads.read('prices', null, () => rest.underlyingPrices(q));
  return {
    pollers,
    rewards: { rewardAccruals: (q) => reads.read('rewards', null, () => rest.rewardAccruals(q)) },
  };
}
