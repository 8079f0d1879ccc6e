/** A k6 response as the judges of contracts/rules/ see it; pure (no k6 import), so Node tests run it. */
import { headerLookup } from '../../contracts/rate-limit.ts';
import type { Exchange } from '../../contracts/rules/exchange.ts';

/** The part of a k6 response an exchange is made of. */
interface K6Answer {
  readonly request: { readonly method: string; readonly url: string };
  readonly status: number;
  /** k6 canonicalises names (`X-Rate-Limit-Remaining`): read in any case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

/** The exchange of a k6 response of `origin` (of the list it asked for, if any). */
export function exchangeOf(answer: K6Answer, origin: Exchange['origin'], list?: Exchange['list']): Exchange {
  const text = typeof answer.body === 'string' ? answer.body : '';
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { origin, list, request: answer.request, status: answer.status, header: headerLookup(answer.headers), body, text };
}
