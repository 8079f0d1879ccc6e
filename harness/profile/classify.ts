/**
 * Reading a shape off an answer: which of the profile's error-body shapes a body is, how many
 * fractional digits a timestamp or a reset has, which form a cursor takes. Pure, so the unit tests
 * hold every shape without a server.
 */
import type { ApiErrorBodyShape, TokenErrorBodyShape } from '../../schemas/types.ts';
import type { ApiResponse } from '../client/transport.ts';

type Shape = ApiErrorBodyShape | 'oauth';
type Answer = Pick<ApiResponse, 'text' | 'body' | 'headers'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The shape of an error body, by its members (every shape of schemas/profile.schema.json `$defs`):
 * an `errors` array (the platform's), `error` with `error_description` (RFC 6749 and 6750 alike, told
 * apart by the origin), an `errors` object beside `title` (ASP.NET's validation problem), `title` and
 * `status` (problem details), or no JSON: empty, HTML or text. Undefined: none of them.
 */
function shapeOf(response: Answer): Shape | undefined {
  const text = response.text.trim();
  if (text === '') return 'empty';
  const type = (response.headers['content-type'] ?? '').toLowerCase();
  if (response.body === undefined) return type.includes('html') || /^<(?:!doctype|html)/i.test(text) ? 'html' : 'text';
  const body = response.body;
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.errors)) return 'errors-array';
  if (typeof body.error === 'string') return 'oauth';
  if (isObject(body.errors) && typeof body.title === 'string') return 'aspnet-validation';
  // ASP.NET writes its other errors as problem details too, with an RFC section as `type`; only its 400 tells them apart (apiErrorShape).
  return typeof body.title === 'string' && body.status !== undefined ? 'problem-json' : undefined;
}

/** The shape of a refused token request's body; undefined when it is none of the profile's shapes. */
export function tokenErrorShape(response: Answer): TokenErrorBodyShape | undefined {
  const shape = shapeOf(response);
  return shape === 'rfc6750' || shape === 'aspnet-validation' ? undefined : shape;
}

/**
 * The shape of an api-origin error body. `refusal` is a refused query's body where one was met: a
 * 401 in problem details is ASP.NET's too, and only its validation problem on a 400 shows which.
 */
export function apiErrorShape(unauthenticated: Answer, refusal?: Answer): ApiErrorBodyShape | undefined {
  const shape = shapeOf(unauthenticated);
  if (shape === 'oauth') return 'rfc6750';
  if (shape === 'problem-json' && refusal !== undefined && shapeOf(refusal) === 'aspnet-validation') return 'aspnet-validation';
  return shape;
}

/** Fractional digits of a timestamp's seconds (`12.44` → 2, `12` → 0); undefined for text that is no timestamp. */
export function fractionDigits(timestamp: string): number | undefined {
  const match = /T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(timestamp);
  return match ? (match[1]?.length ?? 0) : undefined;
}

/** The form of a next value: the mock's 22 base64url characters or 10 letters; undefined for any other. */
export function cursorForm(value: string): 'base64url' | 'letters' | undefined {
  if (/^[A-Za-z]{10}$/.test(value)) return 'letters';
  if (/^[A-Za-z0-9_-]{22}$/.test(value)) return 'base64url';
  return undefined;
}
