/**
 * What every probe of `npm run profile` shares: the suite's own transport, token helper and api client (so a probe sends, redacts and paces exactly as a
 * contract test does), the requests counted against one rate window's budget, every answer in order, the tokens to log out at the end, and the record of each
 * option: the value observed with its basis, or "unknown" with the reason, and the exchanges that showed it. The prober learns from the API's behaviour alone:
 * no control plane, no clock moved.
 */
import { DEFAULT_RATE } from '../../contracts/limits.ts';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { Profile, ProfileGroup } from '../../schemas/types.ts';
import { PROFILE_GROUPS, PROFILE_OPTIONS } from '../../mock/profile.ts';
import { ApiClient, type Query, type ResourceEndpointId } from '../client/api.ts';
import { redactedJson } from '../client/redact.ts';
import { type IssuedToken, WorkerSession } from '../run/session.ts';
import type { Target } from '../run/target.ts';
import type { SuiteConfig } from '../run/config.ts';
import { Tokens } from '../client/tokens.ts';
import { type ApiResponse, describeRequest, type OutgoingRequest, Transport, type TransportOptions } from '../client/transport.ts';

/** `group.option`, e.g. `pagination.finalPage`. */
export type OptionKey = { [G in ProfileGroup]: `${G}.${keyof Profile[G] & string}` }[ProfileGroup];

/** Every option of a profile, in the schema's order. */
export const ALL_OPTIONS = PROFILE_GROUPS.flatMap((group) => PROFILE_OPTIONS[group].map((option) => `${group}.${option}` as OptionKey));

/** What the prober may spend and wait for (docs/configuration.md): LP_QUOTA=1, LP_FULL=1, LP_SNAPSHOT_LIFETIME; the rate is the target's (LP_RATE). */
export type ProbeSettings = Pick<SuiteConfig, 'quota' | 'full'> & { readonly snapshotLifetimeSeconds: number };

/** Waits up to this long are made without LP_FULL=1: a few seconds, as a short window or a mock's short snapshot lifetime needs. */
export const SHORT_WAIT_MS = 10_000;

/** Requests kept in hand below one window's budget, for other users of the key, so that the prober never meets a 429 of its own making. */
const BUDGET_RESERVE = 2;

const EVIDENCE_HEADERS = ['content-type', 'www-authenticate', 'x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset', 'retry-after'];
const BODY_EXCERPT = 300;

/** One exchange as the evidence file shows it: redacted (the worker's redactor knows every token issued), the headers that matter, a body excerpt. */
function exchangeRecord(response: ApiResponse) {
  const headers = Object.fromEntries(EVIDENCE_HEADERS.flatMap((name) => (response.headers[name] === undefined ? [] : [[name, response.headers[name]]])));
  const body = response.text === '' ? '' : redactedJson(response.body ?? response.text, BODY_EXCERPT);
  return { request: describeRequest(response.request), status: response.status, headers, body };
}

type Exchanges = { readonly exchanges: ReadonlyArray<ReturnType<typeof exchangeRecord>> };
export type OptionRecord = Exchanges & ({ readonly value: unknown; readonly basis: string } | { readonly unknown: string });

/** The suite's transport, counting each request against the budget (one beyond it throws: the probe that sends it stops) and keeping each answer. */
class ProbeTransport extends Transport {
  constructor(
    options: TransportOptions,
    readonly probe: Probe,
  ) {
    super(options);
  }

  override async send(request: OutgoingRequest): Promise<ApiResponse> {
    const { counter, answers } = this.probe;
    if (counter.sent >= counter.cap) throw new Error(`the request budget (${counter.cap} requests, one rate window) is spent`);
    counter.sent++;
    answers.push(await super.send(request));
    return answers.at(-1) as ApiResponse;
  }
}

/** The worker session, entering every token the target issues (a JSON body's and a refresh's too) in the ledger of tokens to log out. */
class LedgerSession extends WorkerSession {
  /** Access token to its refresh token. */
  readonly ledger = new Map<string, string>();

  override recordIssued(token: IssuedToken): void {
    super.recordIssued(token);
    this.ledger.set(token.accessToken, token.refreshToken);
  }
}

export class Probe {
  readonly session: LedgerSession;
  readonly counter = { sent: 0, cap: 0 };
  /** Paced: waits while the budget is spent, retries a 429 as the document advises. */
  readonly transport: Transport;
  readonly tokens: Tokens;
  readonly api: ApiClient;
  /** Unpaced, no retries: for the timing probes and the 429 probe, which must see every answer as it comes. */
  readonly rawApi: ApiClient;
  /** Every answer of the run, in order: a probe reads what the others were served too (items, rate headers, refusals). */
  readonly answers: ApiResponse[] = [];
  readonly records = new Map<OptionKey, OptionRecord>();
  /** Requests one window allows (the target's rate, else the document's 200): the whole budget outside the 429 probe, less a reserve. */
  readonly windowRequests: number;

  constructor(
    readonly target: Target,
    readonly settings: ProbeSettings,
  ) {
    this.session = new LedgerSession(target, undefined);
    this.windowRequests = target.rate?.requests ?? DEFAULT_RATE.requests;
    this.counter.cap = Math.max(1, this.windowRequests - BUDGET_RESERVE);
    this.transport = new ProbeTransport({ governor: this.session.governor }, this);
    const noBearer = { current: () => Promise.reject(new Error('every probe names its token')), renew: async () => undefined };
    this.tokens = new Tokens(this.transport, this.session);
    this.api = new ApiClient(this.transport, this.session, noBearer);
    this.rawApi = new ApiClient(new ProbeTransport({ governor: this.session.governor, quota: true }, this), this.session, noBearer);
  }

  /** Answers that carried the X-Rate-Limit-* headers. */
  get rated(): ApiResponse[] {
    return this.answers.filter((a) => a.headers['x-rate-limit-remaining'] !== undefined);
  }

  /** Refused queries (4xx of a GET other than 401, 403 and 429): their status and body shape decide two options. */
  get refusals(): ApiResponse[] {
    return this.answers.filter((a) => a.request.method === 'GET' && isRefusal(a) && ![401, 403, 429].includes(a.status));
  }

  /** Content items served on any page (timestamps are read from them). */
  get items(): Record<string, unknown>[] {
    return this.answers.filter((a) => a.status === 200 && a.request.url.split('?')[0]?.endsWith(ENDPOINTS.listContent.path)).flatMap(dataOf);
  }

  /** A list of `endpoint` with a token holding `scope` alone: what that scope reaches. */
  async listAs(scope: string, endpoint: ResourceEndpointId, query: Query): Promise<ApiResponse> {
    return this.api.list(endpoint, query, { token: (await this.tokens.issue([scope])).accessToken });
  }

  /** Decides `option` as `value` because of `basis`; undefined: no value fits, and `basis` is why the option stays unknown. */
  decide(option: OptionKey, value: unknown, basis: string, ...responses: readonly ApiResponse[]): void {
    if (value === undefined) this.unknown(option, basis, ...responses);
    else this.records.set(option, { value, basis, exchanges: responses.map(exchangeRecord) });
  }

  /** decide() on what `what` got: the last answer's status. */
  settle(option: OptionKey, what: string, value: unknown, ...responses: readonly ApiResponse[]): void {
    this.decide(option, value, `${what} got ${responses.at(-1)?.status}`, ...responses);
  }

  /** Leaves each option unknown for `reason`; a decision stands: a later probe that cannot decide does not undo an earlier one that could. */
  unknown(options: OptionKey | readonly OptionKey[], reason: string, ...responses: readonly ApiResponse[]): void {
    for (const option of [options].flat())
      if (this.value(option) === undefined) this.records.set(option, { unknown: reason, exchanges: responses.map(exchangeRecord) });
  }

  value<T>(option: OptionKey): T | undefined {
    return (this.records.get(option) as { readonly value?: T } | undefined)?.value;
  }
}

export function dataOf(response: ApiResponse): Record<string, unknown>[] {
  const data = (response.body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data.filter((d) => typeof d === 'object' && d !== null) as Record<string, unknown>[]) : [];
}

export function linksOf(response: ApiResponse): Record<string, unknown> | undefined {
  const links = (response.body as { links?: unknown } | undefined)?.links;
  return typeof links === 'object' && links !== null ? (links as Record<string, unknown>) : undefined;
}

export const isSuccess = (response: ApiResponse): boolean => response.status >= 200 && response.status <= 299;
export const isRefusal = (response: ApiResponse): boolean => response.status >= 400 && response.status <= 499;

/** The answer's status where it is one of `statuses`, the values an option allows; undefined for any other. */
export function statusIn(response: ApiResponse, statuses: readonly number[]): number | undefined {
  return statuses.includes(response.status) ? response.status : undefined;
}

/** `served` for a 2xx, `refused` for a 4xx, undefined (no value fits) for any other status. */
export function outcome<S, R>(response: ApiResponse, served: S, refused: R): S | R | undefined {
  return isSuccess(response) ? served : isRefusal(response) ? refused : undefined;
}
