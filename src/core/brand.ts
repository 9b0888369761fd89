/** A nominal type: `Brand<string, 'Symbol'>` is a string that cannot be mixed up with other strings. */
export type Brand<T, B extends string> = T & { readonly __brand: B };
