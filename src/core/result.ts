/** Success or failure without exceptions: decoders and pure checks return this. */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Wraps a success value. */
export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

/** Wraps a failure value. */
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
