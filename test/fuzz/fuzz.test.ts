/**
 * Fuzz (quick slice for `npm test`): a few thousand malformed, truncated and mutated frames made
 * from the venue fixtures and valid requests. `npm run fuzz` runs 100 000 per target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMdWsFrame, decodeOrderWsFrame } from '../../src/wire/index.ts';
import { fixtureSeeds, fuzzFrameArb, MD_REQUEST_SEEDS, ORDER_REQUEST_SEEDS, sampleFrames } from './frames.ts';
import { fuzzDaemon, fuzzDecoders, fuzzVenueParsers, fuzzVenueSockets } from './targets.ts';

const SEED = 20261124;
/** A hang guard, not a speed target: these CPU-bound slices took up to 16 s on a 2-core box under load. */
const TIMEOUT_MS = 60_000;

describe('fuzz: decoders and mappers', () => {
  it('never throw on 1 000 broken fixture frames (property)', () => {
    fc.assert(
      fc.property(fuzzFrameArb(fixtureSeeds()), (f) => {
        const c = fuzzDecoders([f]);
        return c.crashes === 0;
      }),
      { numRuns: 1_000, seed: SEED },
    );
  }, TIMEOUT_MS);

  it('reject what they cannot read with a path, and still accept the untouched fixtures', () => {
    const seeds = fixtureSeeds((n) => n.startsWith('ws-'));
    for (const s of seeds) expect(decodeMdWsFrame(s.text).ok || decodeOrderWsFrame(s.text).ok).toBe(true);
    const c = fuzzDecoders(sampleFrames(seeds, 1_000, SEED));
    expect(c.crashes).toBe(0);
    expect(c.rejected).toBeGreaterThan(500);
    expect(c.rejected + c.accepted).toBe(1_000);
  }, TIMEOUT_MS);
});

describe('fuzz: the local venue', () => {
  it('market-data request parser answers every broken request without throwing (property)', () => {
    fc.assert(fc.property(fuzzFrameArb(MD_REQUEST_SEEDS), (f) => fuzzVenueParsers([f]).crashes === 0), { numRuns: 2_000, seed: SEED });
  }, TIMEOUT_MS);

  it('order WS, market-data WS and REST survive 1 500 broken frames and still trade', async () => {
    const frames = sampleFrames([...ORDER_REQUEST_SEEDS, ...MD_REQUEST_SEEDS, ...fixtureSeeds((n) => n.startsWith('ws-'))], 1_500, SEED);
    const c = await fuzzVenueSockets(frames, { restEvery: 15 });
    expect(c.crashSamples).toEqual([]);
    expect(c.crashes).toBe(0);
    expect(c.healthyAfter).toBe(true);
    expect(c.restBodies).toBe(100);
  }, TIMEOUT_MS);
});

describe('fuzz: a running daemon\'s sockets', () => {
  it('counts every injected bad frame once, logs each kind once, keeps quoting', async () => {
    const frames = sampleFrames(fixtureSeeds((n) => n.startsWith('ws-')), 1_000, SEED);
    const c = await fuzzDaemon(frames);
    expect(c.crashSamples).toEqual([]);
    expect(c.countedOrders).toBe(c.injectedOrders);
    expect(c.countedMd).toBe(c.injectedMd);
    expect(c.injectedOrders + c.injectedMd).toBeGreaterThan(500);
    expect(c.badFrameLogLines).toBe(c.kinds);
    expect(c.intentsAfter).toBeGreaterThan(0);
    expect(c.workingAfter).toBeGreaterThan(0);
  }, TIMEOUT_MS);
});
