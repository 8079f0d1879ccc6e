/**
 * The mock's factory: reads the options once, builds the collaborators (clock, keys, tokens, rate limiter, endpoints, data, control plane), wires them to the
 * router (mock/routes.ts) and the servers (mock/server.ts) of the `auth` origin (token endpoint) and the `api` origin (logout, /api/v2, /_mock).
 *
 * Everything is decided here, at construction: a request pays for routing and its endpoint's work only.
 */
import type { Server } from 'node:http';
import { formatPeriod, parsePeriod, parseRate } from '../contracts/duration.ts';
import { ENDPOINTS, type EndpointId, type Origin } from '../contracts/endpoints.ts';
import { SNAPSHOT_TTL_SECONDS } from '../contracts/limits.ts';
import type { Profile } from '../schemas/types.ts';
import { BearerAuth } from './bearer.ts';
import { ClientFindings, findingsRoutes } from './client-findings.ts';
import { ClientRegistry, DEFAULT_CLIENTS, validateClients } from './clients.ts';
import { httpDate, VirtualClock } from './clock.ts';
import { CONTROL_PREFIX, ControlPlane } from './control.ts';
import { Replies, type RequestHandler } from './http.ts';
import { ListEndpoint } from './list-endpoint.ts';
import { Logout } from './logout.ts';
import { BUILT_IN_PROFILES, checkComplete } from './profile.ts';
import { RateLimiter } from './rate-limit.ts';
import { Resources } from './resources.ts';
import { checkHostNames, type HostNames, type RouteHandler, type RouteHandlers, Router } from './routes.ts';
import type { SeamContext } from './seams.ts';
import { checkInteger, checkTimeouts, closeServer, createOriginServer, listenOn, logged } from './server.ts';
import { TokenEndpoint } from './token-endpoint.ts';
import { DEFAULT_TOKEN_THROTTLE, FailureThrottle } from './token-throttle.ts';
import { TokenStore } from './tokens.ts';
import type { MockOptions, MockServer, MockStats } from './types.ts';

export type { ClientConfig } from './clients.ts';
export { DEFAULT_CLIENTS } from './clients.ts';
export type { Profile } from '../schemas/types.ts';
export type { MockOptions, MockServer } from './types.ts';

export function createMock(options: MockOptions = {}): MockServer {
  return new Mock(options);
}

/** The profile given, checked whole; its rate and token lifetime replaced by the `rate` and `tokenTtlSeconds` options', so that it says what is in force. */
function profileOf(options: MockOptions): Profile {
  const checked = checkComplete(options.profile ?? BUILT_IN_PROFILES.strict);
  if (!checked.ok) throw new RangeError(`profile: ${checked.error}`);
  const { rate, tokenTtlSeconds } = options;
  const profile = checked.value;
  const lifetime = tokenTtlSeconds === undefined ? profile.tokens.lifetime : formatPeriod(checkInteger('tokenTtlSeconds', tokenTtlSeconds, 1));
  return {
    ...profile,
    tokens: { ...profile.tokens, lifetime },
    rateLimit: rate === undefined || rate === null ? profile.rateLimit : { ...profile.rateLimit, rate: `${rate.requests}/${rate.period}` },
  };
}

class Mock implements MockServer {
  readonly clock: VirtualClock;
  readonly profile: Profile;
  readonly #host: string;
  readonly #scheme: 'http' | 'https';
  /** Where the mock listens: two servers (auth, api), or one for both told apart by the Host names. */
  readonly #listeners: ReadonlyArray<{ readonly server: Server; readonly port: number }>;
  readonly #names: HostNames | undefined;
  readonly #control: ControlPlane | undefined;
  readonly #tokens: TokenStore;
  readonly #limiter: RateLimiter;
  readonly #resources: Resources;
  readonly #throttle: FailureThrottle | undefined;
  readonly #findings: ClientFindings | undefined;
  #urls: { auth: string; api: string; address: string } | undefined;

  constructor(options: MockOptions) {
    this.#host = options.host ?? '127.0.0.1';
    this.#scheme = options.tls ? 'https' : 'http';
    const hostNames = options.hostNames && checkHostNames(options.hostNames, { auth: 'hostNames.auth', api: 'hostNames.api' });
    if (hostNames !== undefined && (options.authPort !== undefined || options.apiPort !== undefined))
      throw new RangeError('authPort and apiPort are for two ports; with hostNames one port serves both origins: give port.');
    if (hostNames === undefined && options.port !== undefined)
      throw new RangeError('port is the one port of hostNames; without them give authPort and apiPort.');
    const profile = (this.profile = profileOf(options));
    const registry = new ClientRegistry(validateClients(options.clients ?? DEFAULT_CLIENTS, 'clients'), {
      rate: options.rate === undefined ? (parseRate(profile.rateLimit.rate) ?? null) : options.rate,
      // The schema's pattern makes it a period.
      tokenTtlSeconds: parsePeriod(profile.tokens.lifetime) as number,
    });
    const timeouts = checkTimeouts(options.timeouts ?? {});
    this.clock = new VirtualClock(options.timeSource ?? Date.now);
    const date = httpDate(this.clock);
    const seams = options.seams ?? {};
    const core: SeamContext = { clock: this.clock, clients: registry, profile };
    const replies = new Replies({ api: profile.errors.body, token: profile.tokens.errorBody });
    const controlReplies = new Replies();
    // The mock judges its callers unless told not to (mock/client-findings.ts); findings go to the log too.
    const findings = (this.#findings = options.findings === false ? undefined : new ClientFindings({ clock: this.clock, log: options.log }));
    // The core's components, each wrapped by its seam where one is given.
    const clients = seams.clients?.(registry, core) ?? registry;
    this.#tokens = new TokenStore({ clock: this.clock, indexLive: profile.tokens.reuse === 'live-token' });
    const tokens = seams.tokens?.(this.#tokens, core) ?? this.#tokens;
    this.#limiter = new RateLimiter({ clock: this.clock, profile: profile.rateLimit });
    const rate = seams.rateLimit?.(this.#limiter, core) ?? this.#limiter;
    const bearer = new BearerAuth({ tokens, profile: profile.auth });
    const access = seams.access?.(bearer, core) ?? bearer;
    const isKnown = (id: string) => registry.get(id) !== undefined;
    const throttleRate = options.tokenThrottle === undefined ? DEFAULT_TOKEN_THROTTLE : options.tokenThrottle;
    this.#throttle = throttleRate === null ? undefined : new FailureThrottle({ clock: this.clock, rate: throttleRate, replies, isKnown });
    // The profile's limit on token requests (tokens.requestLimit), counted as the throttle counts failures.
    const limit = parseRate(profile.tokens.requestLimit);
    const requestLimit = limit ? new FailureThrottle({ clock: this.clock, rate: limit, replies, isKnown, counted: 'token requests' }) : undefined;
    const tokenEndpoint = new TokenEndpoint({
      clients,
      tokens,
      replies,
      profile: profile.tokens,
      rate: profile.rateLimit.countsTokenRequests ? rate : undefined,
      throttle: this.#throttle,
      requestLimit,
      now: () => this.clock.now(),
    });
    const logout = new Logout({ access, tokens, rate, replies, profile: profile.logout });
    this.#resources = new Resources({
      clock: this.clock,
      seed: checkInteger('seed', options.seed ?? 1, 0),
      items: checkInteger('items', options.items ?? 250, 0),
      users: checkInteger('users', options.users ?? 50, 0),
      snapshotTtlSeconds: checkInteger('snapshotTtlSeconds', options.snapshotTtlSeconds ?? SNAPSHOT_TTL_SECONDS, 1),
      profile,
      pages: seams.pages,
    });
    const lists = new ListEndpoint({ access, rate, resources: this.#resources, replies, baseUrl: () => this.baseUrl });
    this.#control =
      options.control === false
        ? undefined
        : new ControlPlane({
            clock: this.clock,
            resources: this.#resources,
            clients: registry,
            tokens: this.#tokens,
            limiter: this.#limiter,
            origins: () => ({ authUrl: this.authUrl, baseUrl: this.baseUrl }),
            reset: () => this.reset(),
            stats: () => this.stats(),
            profile,
            replies: controlReplies,
            ...(findings ? { routes: findingsRoutes(findings, controlReplies) } : {}),
          });
    const handlers: Record<EndpointId, RouteHandler> = {
      token: (request) => tokenEndpoint.respond(request),
      logout: (request) => logout.respond(request),
      listContent: (request) => lists.respond('listContent', request),
      listUsers: (request) => lists.respond('listUsers', request),
    };
    const exchange = seams.exchange;
    if (exchange !== undefined) for (const id of Object.keys(ENDPOINTS) as EndpointId[]) handlers[id] = exchange(id, handlers[id], core);
    // Outermost, so that the findings judge what the client was answered.
    if (findings !== undefined) for (const id of Object.keys(ENDPOINTS) as EndpointId[]) handlers[id] = findings.observe(id, handlers[id]);
    const router = new Router({ handlers: handlers as RouteHandlers, replies, controlReplies, control: this.#control, date });
    const logging = (origin: Origin, handler: RequestHandler) => (options.log ? logged(origin, handler, options.log) : handler);
    const byOrigin = { auth: logging('auth', router.onAuth), api: logging('api', router.onApi) };
    const server = (origin: Origin, handler: RequestHandler) => createOriginServer(origin, handler, timeouts, router, options.tls);
    const port = (name: 'authPort' | 'apiPort' | 'port') => checkInteger(name, options[name] ?? 0, 0, 65_535);
    this.#names = hostNames;
    // What node answers before a request is read (a bad head) cannot know its origin: one server for both takes the api's shape.
    const both = hostNames && Router.byHost(hostNames, { ...byOrigin, other: logging('api', router.misdirected(hostNames)) });
    this.#listeners = both
      ? [{ server: server('api', both), port: port('port') }]
      : [
          { server: server('auth', byOrigin.auth), port: port('authPort') },
          { server: server('api', byOrigin.api), port: port('apiPort') },
        ];
  }

  get authUrl(): string {
    return this.#listening().auth;
  }

  get baseUrl(): string {
    return this.#listening().api;
  }

  get controlUrl(): string | undefined {
    return this.#control ? `${this.#listening().api}${CONTROL_PREFIX}` : undefined;
  }

  get address(): string {
    return this.#listening().address;
  }

  async listen(): Promise<void> {
    if (this.#urls) return;
    const ports: number[] = [];
    try {
      for (const { server, port } of this.#listeners) ports.push(await listenOn(server, port, this.#host));
    } catch (error) {
      await this.close();
      throw error;
    }
    const host = this.#host.includes(':') ? `[${this.#host}]` : this.#host;
    const [first, second] = ports as [number, number];
    const names = this.#names;
    const [auth, api] = names ? [`${names.auth}:${first}`, `${names.api}:${first}`] : [`${host}:${first}`, `${host}:${second}`];
    this.#urls = { auth: `${this.#scheme}://${auth}`, api: `${this.#scheme}://${api}`, address: names ? `${host}:${first}` : host };
  }

  async close(): Promise<void> {
    await Promise.all(this.#listeners.map((l) => closeServer(l.server)));
  }

  reset(): void {
    this.clock.reset();
    this.#tokens.clear();
    this.#limiter.clear();
    this.#resources.reset();
    this.#throttle?.reset();
    // Not the limit on token requests: a token endpoint's (or its gateway's) throttle counts on whatever a test does, as on a real service.
    this.#findings?.clear();
  }

  stats(): MockStats {
    const tokens = this.#tokens.stats();
    return {
      ...tokens,
      // A refresh token of a service that answers no refresh grant opens nothing: only redeemable ones count.
      validRefreshTokens: this.profile.tokens.refreshGrant ? tokens.validRefreshTokens : 0,
      rateWindows: this.#limiter.stats().windows,
      snapshots: this.#resources.stats().snapshots,
      throttledClients: this.#throttle?.size ?? 0,
    };
  }

  #listening(): { auth: string; api: string; address: string } {
    if (!this.#urls) throw new Error('The mock is not listening yet: await listen() first.');
    return this.#urls;
  }
}
