/**
 * What a rule's judge sees and says: one exchange (a response with its request) in, what was expected and what came back out. The same judges serve the suite
 * (harness/verdict/response-rules.ts builds the exchange from its ApiResponse) and the k6 scripts (load/lib/checks.ts, from a k6 response). Schema validation
 * is injected: the suite passes the validators schemas/index.ts compiles, k6 the standalone ones generated at build time (k6 compiles no schema). k6-safe.
 */
import type { HeaderLookup } from '../rate-limit.ts';

export interface Exchange {
  /** `auth` is {auth_url} (the token endpoint); `api` is {base_url} (logout and resources). */
  readonly origin: 'auth' | 'api';
  /** The list a GET of the api origin asked for; undefined for any other request. */
  readonly list?: 'content' | 'users' | undefined;
  /** The request; its headers and body where a judge of the client needs them (the mock's client findings). */
  readonly request: { readonly method: string; readonly url: string; readonly header?: HeaderLookup; readonly body?: string };
  readonly status: number;
  readonly header: HeaderLookup;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  readonly body: unknown;
  readonly text: string;
  /** Epoch ms the request left and its answer came: what a sequence rule reads time from. */
  readonly sentMs?: number;
  readonly receivedMs?: number;
}

/** An error of a schema validator, as Ajv (compiled or standalone) reports it. */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string | undefined;
  readonly params?: unknown;
  /** The offending value, from a verbose validator. */
  readonly data?: unknown;
}

/** A schema validator: true when `data` matches, and `errors` after a failed call. */
type SchemaValidator = { (data: unknown): boolean; errors?: readonly SchemaError[] | null | undefined };

/** The validators the judges use, named as schemas/validators.ts and k6's standalone module export them: either module is the table. */
export interface SchemaValidators {
  readonly validateTokenResponse: SchemaValidator;
  readonly validateListEnvelope: SchemaValidator;
  readonly validateResourceObject: SchemaValidator;
  readonly validateContentAttributes: SchemaValidator;
  readonly validateErrorBody: SchemaValidator;
}

/** The target's time when it answered, as well as it is known. */
export interface TargetClock {
  /** Epoch ms: its control plane's, else its Date header's, else ours. */
  readonly nowMs: number;
  /** How far that may be from the target's clock. */
  readonly slackMs: number;
}

export interface JudgeContext {
  readonly validators: SchemaValidators;
  /** For X-Rate-Limit-Reset "within one period"; unchecked when absent. */
  readonly clock?: TargetClock | undefined;
  /** The configured token lifetime in seconds; expires_in's bound is unchecked when absent. */
  readonly lifetimeSeconds?: number | undefined;
  /** Quotes a body in a finding (the suite redacts it); default: the text, cut. */
  readonly quote?: ((text: string, max: number) => string) | undefined;
}

/** A broken rule: what was expected, what came back (the caller adds the request). */
export type Broken = { readonly expected: string; readonly got: string };

/** undefined: the rule does not apply to this exchange; null: it held; else how it broke. */
export type Judgement = Broken | null | undefined;

export type ExchangeJudge = (exchange: Exchange, context: JudgeContext) => Judgement;

/** The judgement of a check that applies: null when `ok`, else expected and got. */
export function held(ok: boolean, expected: string, got: () => string): Judgement {
  return ok ? null : { expected, got: got() };
}

/** `expected …, got …`: a finding's sentence, without its request. */
export function sentence(broken: Broken): string {
  // A got of several lines (schema errors, items) starts on its own line.
  return `expected ${broken.expected}, got${broken.got.startsWith('\n') ? ':' : ' '}${broken.got}`;
}

export function isServed(exchange: Exchange): boolean {
  return exchange.status >= 200 && exchange.status <= 299;
}

/** A 4xx whose body holds no `data` array with items: how a request without a valid token is refused. */
export function isRefusal(exchange: Pick<Exchange, 'status' | 'body'>): boolean {
  const data = (exchange.body as { data?: unknown } | undefined)?.data;
  return exchange.status >= 400 && exchange.status <= 499 && !(Array.isArray(data) && data.length > 0);
}

export function quoted(context: JudgeContext, text: string, max: number): string {
  return context.quote?.(text, max) ?? (text.length > max ? `${text.slice(0, max)}…` : text);
}
