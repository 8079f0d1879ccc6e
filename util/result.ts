/** The one result type: a value, or an error saying what was wrong (a sentence by default; the mock carries its error objects). k6-safe. */
export type Result<T, E = string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function fail<E = string>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
