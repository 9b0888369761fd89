import type { WireRewardAccrualsQuery, WireRewardAccrualsResponse } from '../wire/index.ts';
import type { RewardSource } from './types.ts';
import { fromWireRewardPage, toWireRewardQuery } from './wire-map.ts';

/** The part of the client's RestClient the tracker needs (structural, so tests can fake it). */
export interface RewardRestPort {
  rewardAccruals(q: WireRewardAccrualsQuery): Promise<WireRewardAccrualsResponse>;
}

/**
 * A RewardSource over the client's `RestClient.rewardAccruals` (decoded by the client with wire/'s
 * decoder, bearer token, safe-read retries): the daemon passes its client, `mmbot rewards` its own.
 */
export function clientRewardSource(rest: RewardRestPort): RewardSource {
  return { rewardAccruals: async (q) => fromWireRewardPage(await rest.rewardAccruals(toWireRewardQuery(q))) };
}
