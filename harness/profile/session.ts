/**
 * What every probe of `npm run profile` shares: the suite's own transport, token helper and api client
 * (so a probe sends, redacts and paces exactly as a contract test does), a count of the requests sent
 * against one rate window's budget, the ledger of tokens issued (every one is logged out at the end),
 * and the record of each option: the value observed with its evidence, or "unknown" with the reason.
 *
 * The prober learns from the API's behaviour alone: it has no control plane, so it never asks a
 * target what profile it runs, and never moves a clock.
 */
import type { APIRequestContext } from '@playwright/test';
import type { Rate } from '../../contracts/duration.ts';
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { Profile, ProfileGroup } from '../../schemas/types.ts';
import { ApiClient } from '../client/api.ts';
import { redactedJson } from '../client/redact.ts';
import { WorkerSession } from '../target/session.ts';
import type { Target } from '../target/target.ts';
import { type IssuedToken, issuedTokenOf, Tokens } from '../client/tokens.ts';
import { type ApiResponse, describeRequest, type OutgoingRequest, Transport, type TransportOptions } from '../client/transport.ts';

/** `group.option`, e.g. `pagination.finalPage`. */
export type OptionKey = { [G in ProfileGroup]: `${G}.${keyof Profile[G] & string}` }[ProfileGroup];

/** What the prober may spend and wait for. */
export interface ProbeSettings {
  /** LP_QUOTA=1: spend what is left of a window to meet a 429 (Retry-After, a block's end). Default off. */
  readonly quota: boolean;
  /** LP_FULL=1: wait longer than SHORT_WAIT_MS (a whole 1m window, the 2-minute snapshot lifetime). Default off. */
  readonly full: boolean;
  /** LP_SNAPSHOT_LIFETIME: how long a snapshot lives without a next request. Default the document's 120 s. */
  readonly snapshotLifetimeSeconds: number;
  /**
   * Requests one window allows (LP_RATE, else the document's 200): the prober's whole budget outside the
   * 429 probe, less a reserve so that it never meets a 429 of its own making.
   */
  readonly windowRequests: number;
  /** LP_RATE as given, to tell the observed rate from; undefined: not given. */
  readonly rate: Rate | null | undefined;
}

/** Waits up to this long are made without LP_FULL=1: a few seconds, as a short window or a mock's short snapshot lifetime needs. */
export const SHORT_WAIT_MS = 10_000;

/** Requests kept in hand below one window's budget, for other users of the key. */
const BUDGET_RESERVE = 2;

/** One request and its answer, as the evidence file shows it: redacted, headers that matter, a body excerpt. */
interface ExchangeRecord {
  readonly request: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type OptionRecord =
  | { readonly option: OptionKey; readonly value: unknown; readonly basis: string; readonly exchanges: readonly ExchangeRecord[] }
  | { readonly option: OptionKey; readonly unknown: string; readonly exchanges: readonly ExchangeRecord[] };

/** Counts every request sent, and refuses one beyond the cap: the probe that would send it stops there. */
export class RequestCounter {
  sent = 0;
  cap: number;

  constructor(cap: number) {
    this.cap = cap;
  }

  take(): void {
    if (this.sent >= this.cap) throw new Error(`the request budget (${this.cap} requests, one rate window) is spent`);
    this.sent++;
  }
}

class CountedTransport extends Transport {
  readonly #counter: RequestCounter;

  constructor(context: APIRequestContext, options: TransportOptions, counter: RequestCounter) {
    super(context, options);
    this.#counter = counter;
  }

  override send(request: OutgoingRequest): Promise<ApiResponse> {
    this.#counter.take();
    return super.send(request);
  }
}

const EVIDENCE_HEADERS = ['content-type', 'www-authenticate', 'x-rate-limit-limit', 'x-rate-limit-remaining', 'x-rate-limit-reset', 'retry-after'];
const BODY_EXCERPT = 300;

/** The evidence of one exchange: never a token or a secret (the worker's redactor knows every one issued). */
function exchangeRecord(response: ApiResponse): ExchangeRecord {
  const headers: Record<string, string> = {};
  for (const name of EVIDENCE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const body = response.text === '' ? '' : redactedJson(response.body ?? response.text, BODY_EXCERPT);
  return { request: describeRequest(response.request), status: response.status, headers, body };
}

export class Probe {
  readonly target: Target;
  readonly settings: ProbeSettings;
  readonly session: WorkerSession;
  readonly counter: RequestCounter;
  /** Paced: waits while the budget is spent, retries a 429 as the document advises. */
  readonly transport: Transport;
  readonly tokens: Tokens;
  readonly api: ApiClient;
  /** Unpaced, no retries: for the timing probes and the 429 probe, which must see every answer as it comes. */
  readonly rawApi: ApiClient;
  readonly #records = new Map<OptionKey, OptionRecord>();
  /** Every access token issued, with its refresh token: all are logged out at the end. */
  readonly ledger = new Map<string, { refreshToken: string | undefined }>();
  /** Content items seen on any page (timestamps are read from them). */
  readonly items: Record<string, unknown>[] = [];
  /** Responses that carried the X-Rate-Limit-* headers, in order. */
  readonly rated: ApiResponse[] = [];
  /** Answers to token requests that issued a token: whether they carry rate headers tells whether they count. */
  readonly tokenAnswers: ApiResponse[] = [];
  /** Refusals of a query (4xx other than 401, 403, 429): their status and body shape decide two options. */
  readonly refusals: ApiResponse[] = [];

  constructor(context: APIRequestContext, target: Target, settings: ProbeSettings) {
    this.target = target;
    this.settings = settings;
    this.session = new WorkerSession(target, undefined);
    this.counter = new RequestCounter(Math.max(1, settings.windowRequests - BUDGET_RESERVE));
    const paced = new CountedTransport(context, { governor: this.session.governor }, this.counter);
    const raw = new CountedTransport(context, { governor: this.session.governor, quota: true }, this.counter);
    const noBearer = { current: () => Promise.reject(new Error('every probe names its token')), renew: async () => undefined };
    this.transport = paced;
    this.tokens = new Tokens(paced, this.session);
    this.api = new ApiClient(paced, this.session, noBearer);
    this.rawApi = new ApiClient(raw, this.session, noBearer);
  }

  /** A token of the organization key for `scopes` (default all it holds), entered in the ledger; throws with the reason when refused. */
  async issue(scopes?: readonly string[]): Promise<IssuedToken> {
    const form = this.tokens.form(scopes);
    const response = await this.tokens.request(form);
    this.noteRated(response);
    this.tokenAnswers.push(response);
    const issued = this.adopt(response, scopes ?? this.target.client.scopes);
    if (issued === undefined) {
      throw new Error(`the token request for scopes "${form.scope}" got ${response.status}: ${redactedJson(response.body ?? response.text)}`);
    }
    return issued;
  }

  /**
   * A token in a 2xx answer to a request other than `issue` (a JSON body, a refresh): entered in the
   * ledger. The worker session has it already (the token helper records every token it sees issued).
   */
  adopt(response: ApiResponse, scopes: readonly string[]): IssuedToken | undefined {
    const issued = issuedTokenOf(response, scopes, this.target.client.clientId);
    if (response.status < 200 || response.status > 299 || !issued.ok) return undefined;
    this.ledger.set(issued.value.accessToken, { refreshToken: issued.value.refreshToken });
    return issued.value;
  }

  /** Keeps what every answer may tell: rate headers, content items, query refusals. */
  noteRated(response: ApiResponse | undefined): ApiResponse | undefined {
    if (response === undefined) return undefined;
    if (response.headers['x-rate-limit-remaining'] !== undefined) this.rated.push(response);
    return response;
  }

  /** Notes what a list answer carries (items, rate headers, a refusal) and hands it back. */
  seen(response: ApiResponse): ApiResponse {
    this.noteRated(response);
    const body = response.body as { data?: unknown } | undefined;
    if (response.status === 200 && Array.isArray(body?.data) && response.request.url.split('?')[0]?.endsWith(ENDPOINTS.listContent.path) === true) {
      for (const item of body.data) if (typeof item === 'object' && item !== null) this.items.push(item as Record<string, unknown>);
    }
    if (response.status >= 400 && response.status <= 499 && ![401, 403, 429].includes(response.status)) this.refusals.push(response);
    return response;
  }

  decide(option: OptionKey, value: unknown, basis: string, ...responses: readonly ApiResponse[]): void {
    this.#records.set(option, { option, value, basis, exchanges: responses.map(exchangeRecord) });
  }

  unknown(option: OptionKey, reason: string, ...responses: readonly ApiResponse[]): void {
    // A decision stands: a later probe that cannot decide does not undo an earlier one that could.
    if (this.decided(option)) return;
    this.#records.set(option, { option, unknown: reason, exchanges: responses.map(exchangeRecord) });
  }

  decided(option: OptionKey): boolean {
    const record = this.#records.get(option);
    return record !== undefined && 'value' in record;
  }

  /** The value decided for `option`, or undefined. */
  value<T>(option: OptionKey): T | undefined {
    const record = this.#records.get(option);
    return record !== undefined && 'value' in record ? (record.value as T) : undefined;
  }

  get records(): ReadonlyMap<OptionKey, OptionRecord> {
    return this.#records;
  }
}

/** The items of a list answer's `data`, or an empty list. */
export function dataOf(response: ApiResponse): Record<string, unknown>[] {
  const data = (response.body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data.filter((d) => typeof d === 'object' && d !== null) as Record<string, unknown>[]) : [];
}

/** `links` of a list answer, or undefined. */
export function linksOf(response: ApiResponse): Record<string, unknown> | undefined {
  const links = (response.body as { links?: unknown } | undefined)?.links;
  return typeof links === 'object' && links !== null ? (links as Record<string, unknown>) : undefined;
}

/** links.next when it is a non-empty string. */
export function nextUrl(response: ApiResponse): string | undefined {
  const next = linksOf(response)?.next;
  return typeof next === 'string' && next !== '' ? next : undefined;
}

export const isSuccess = (response: ApiResponse): boolean => response.status >= 200 && response.status <= 299;
export const isRefusal = (response: ApiResponse): boolean => response.status >= 400 && response.status <= 499;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
