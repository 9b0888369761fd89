/**
 * Connection state of a venue stream. Structurally a superset of the engine's `ConnectionState`
 * (engine/ports.ts), which client/ may not import: the cli passes it straight through.
 */
export interface StreamConnection {
  readonly stream: 'orders' | 'market-data';
  readonly connected: boolean;
  /** When the state changed, epoch ms on the injected clock. */
  readonly tsRecv: number;
  /** Why the stream went down (absent while connected). */
  readonly reason?: string;
}

/** `Omit` applied to each member of a union (plain `Omit` collapses the union). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
