/** The rules of the list envelope (document, Resources, Envelope of a list response and Resource object), each judged on every served page of a list. */
import { held, type Exchange, isServed, type JudgeContext, type Judgement } from './exchange.ts';
import { nextValue } from '../pagination.ts';
import type { WalkStep } from '../walk-sequence.ts';
import { absolute, listed, pageOf, sameResource, sortedQuery } from './page.ts';
import { inArea } from './rule.ts';
import { formatErrors } from './schema-errors.ts';

export const ENVELOPE_RULES = inArea('envelope', {
  'envelope.shape': {
    level: 'contract',
    statement:
      'a list response is a JSON object with links (self, and next where there is a next page) and a data array of objects with type, id (not empty) and attributes',
    section: 'What the service does; Resources, Envelope of a list response and Resource object',
    quote:
      'Request and response bodies of resource endpoints are JSON documents with the members `links` and `data`. Each item in `data` has `type`, `id` and `attributes`. — links | object | Contains `self` and `next`. — id | string | Identifier of the resource.',
    judged: 'every 2xx list page',
    judge: judgeShape,
    observe: (step: WalkStep) =>
      'status' in step && step.status === 200 ? held(step.data !== undefined, 'a JSON list envelope with a data array', () => excerpt(step.text)) : undefined,
  },
  'envelope.self': {
    level: 'contract',
    statement: "links.self is an absolute URL naming the target's own origin and the path of the request",
    section: 'Resources, Envelope of a list response',
    quote: 'links.self | string (URL) | Address of the current request.',
    judged: 'every 2xx list page',
    judge: judgeSelf,
  },
  'envelope.next-link': {
    level: 'contract',
    statement: "links.next, where it is a non-empty string, is a URL on the target's own origin and path that carries the next query parameter",
    section: 'Resources, Envelope of a list response',
    quote: 'links.next | string (URL) | Address of the next page; carries the `next` query parameter.',
    judged: 'every 2xx list page',
    judge: judgeNextLink,
    // A walk's page of new items that is not the final one: its links.next leads on.
    observe: (step: WalkStep) =>
      'cursor' in step && step.cursor !== undefined
        ? held(step.cursor !== '', 'links.next a URL carrying a next value, or nothing', () => excerpt(JSON.stringify(step.next)))
        : undefined,
  },
  'platform.self-query': {
    level: 'platform',
    statement: 'links.self carries the query of the request, or none at all',
    basis: 'platform-docs',
    note: 'The platform’s links.self drops the query string.',
    judged: 'every 2xx list page',
    judge: judgeSelfQuery,
  },
});

function judgeShape(exchange: Exchange, context: JudgeContext): Judgement {
  if (exchange.list === undefined || !isServed(exchange)) return undefined;
  const { validateListEnvelope: listEnvelope, validateResourceObject: resourceObject } = context.validators;
  const body = exchange.body;
  if (!listEnvelope(body)) return { expected: 'a list envelope', got: `\n${formatErrors(listEnvelope.errors, body)}` };
  const bad = (body as { data: unknown[] }).data.flatMap((item, i) =>
    resourceObject(item) ? [] : [`data/${i}: ${formatErrors(resourceObject.errors, item)}`],
  );
  return held(bad.length === 0, 'resource objects with type, id (not empty) and attributes', () => `\n${listed(bad)}`);
}

function judgeSelf(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context);
  const requested = absolute(exchange.request.url);
  if (page === undefined || requested === undefined) return undefined;
  const self = absolute(page.links.self);
  return held(self !== undefined && sameResource(self, requested), `links.self an absolute URL of ${requested.origin}${requested.path}`, () =>
    JSON.stringify(page.links.self),
  );
}

function judgeSelfQuery(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context);
  const requested = absolute(exchange.request.url);
  const self = absolute(page?.links.self);
  // Only a links.self that names the request's resource has a query worth comparing (envelope.self judges the rest).
  if (page === undefined || requested === undefined || self === undefined || !sameResource(self, requested)) return undefined;
  return held(self.query === '' || sortedQuery(self) === sortedQuery(requested), 'links.self with the query of the request or none', () => page.links.self);
}

function judgeNextLink(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context);
  const requested = absolute(exchange.request.url);
  const text = page?.links.next;
  if (requested === undefined || typeof text !== 'string' || text === '') return undefined;
  const next = absolute(text);
  const cursor = next === undefined ? undefined : nextValue(text);
  return held(
    next !== undefined && sameResource(next, requested) && cursor !== undefined && cursor !== '',
    `links.next an absolute URL of ${requested.origin}${requested.path} carrying next`,
    () => JSON.stringify(text),
  );
}

const excerpt = (text: string | undefined) => (text === undefined || text === '' ? 'an empty body' : text.length > 80 ? `${text.slice(0, 80)}...` : text);
