/**
 * Small checks the entry scripts share, kept pure (no k6 import) so that Node tests run them: schema
 * verdicts of the bundled standalone validators as sentences, and the rules of contracts/rules/
 * judged on a k6 response by the same judges the contract suite applies (the standalone validators
 * injected where a judge validates).
 */
import { headerLookup } from '../../contracts/rate-limit.ts';
import type { Exchange, SchemaValidators } from '../../contracts/rules/exchange.ts';
import type { RuleId } from '../../contracts/rules/index.ts';
import { type Judged, judgeExchange } from '../../contracts/rules/judge.ts';

/** An ajv standalone validator (load/types/validators.d.ts): a boolean, and `errors` after a failed call. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: ReadonlyArray<{ readonly instancePath: string; readonly message?: string; readonly keyword: string }> | null;
}

/** `undefined` when `data` matches; else which schema and the first few errors (paths and messages, never values). */
export function schemaProblem(title: string, validate: StandaloneValidator, data: unknown, maxErrors = 3): string | undefined {
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const listed = errors.slice(0, maxErrors).map((e) => `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? e.keyword}`);
  const more = errors.length > maxErrors ? `; and ${errors.length - maxErrors} more` : '';
  return `does not match the ${title} schema: ${listed.join('; ')}${more}`;
}

/** A k6 response as the judges need it: which request it answered, and what came back. */
export interface K6Exchange {
  readonly origin: Exchange['origin'];
  readonly list?: Exchange['list'];
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** k6 canonicalises names (`X-Rate-Limit-Remaining`): read in any case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string | null | undefined;
}

/** The judgement of a k6 response by `rules` of contracts/rules/: which applied, and each broken one's sentence. */
export function judgeRules(answer: K6Exchange, validators: SchemaValidators, rules: readonly RuleId[]): Judged {
  const text = typeof answer.body === 'string' ? answer.body : '';
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const exchange: Exchange = {
    origin: answer.origin,
    list: answer.list,
    request: { method: answer.method, url: answer.url },
    status: answer.status,
    header: headerLookup(answer.headers),
    body,
    text,
  };
  return judgeExchange(exchange, { validators }, rules);
}
