import { MmError } from '../core/errors.ts';
import type { Engine, EngineDeps } from './types.ts';

/** Builds an engine from its injected dependencies (implementation lands next). */
export function createEngine(_deps: EngineDeps): Engine {
  throw new MmError('INVARIANT_BROKEN', 'createEngine: not implemented yet');
}
