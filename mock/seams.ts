/**
 * The mock's named seams: the few places where a layer beside the core may change what one of the core's components decides, at that component's own interface.
 * The core knows nothing of why; the fault layer (mock/faults/) is the one user, and breaks a rule of the API document through them. Each seam is applied once,
 * when the mock is built (mock/app.ts): a mock without seams runs exactly the code it would run without this file, and pays nothing per request.
 *
 * | seam        | wraps                                       | interface (file)                      |
 * |-------------|---------------------------------------------|---------------------------------------|
 * | `clients`   | the API keys: who a client_id and secret are | ClientDirectory (mock/clients.ts)     |
 * | `tokens`    | issuing, verifying and expiring tokens      | Tokens (mock/tokens.ts)               |
 * | `access`    | bearer token → grant; grant → scope verdict | AccessControl (mock/bearer.ts)        |
 * | `rateLimit` | one request counted: 429 or not, headers    | RateLimit (mock/rate-limit.ts)        |
 * | `pages`     | a page's plan, where a walk goes on, cursor | PageSeam (mock/pages.ts)              |
 * | `exchange`  | one endpoint: request facts in, reply out   | RouteHandler (mock/routes.ts)         |
 *
 * A wrapper gets the core's component (`inner`) and returns one with the same interface; it may call `inner` or not. `core` gives it the clock, the keys and
 * the profile in force.
 */
import type { EndpointId } from '../contracts/endpoints.ts';
import type { Profile } from '../schemas/types.ts';
import type { AccessControl } from './bearer.ts';
import type { ClientDirectory } from './clients.ts';
import type { Clock } from './clock.ts';
import type { PageSeam } from './pages.ts';
import type { RateLimit } from './rate-limit.ts';
import type { RouteHandler } from './routes.ts';
import type { Tokens } from './tokens.ts';

export type { PagePlan, PageSeam } from './pages.ts';
export type { RateOutcome, RatePrincipal } from './rate-limit.ts';
export type { RouteHandler } from './routes.ts';
export type { AccessGrant, IssuedTokens, Tokens } from './tokens.ts';
export type { Reply } from './http.ts';

/** What a wrapper may read of the mock it is part of. */
export interface SeamContext {
  readonly clock: Clock;
  /** The core's keys (not wrapped by the `clients` seam). */
  readonly clients: ClientDirectory;
  readonly profile: Profile;
}

type Seam<T> = (inner: T, core: SeamContext) => T;

export interface MockSeams {
  readonly clients?: Seam<ClientDirectory>;
  readonly tokens?: Seam<Tokens>;
  readonly access?: Seam<AccessControl>;
  readonly rateLimit?: Seam<RateLimit>;
  readonly pages?: PageSeam;
  /** Called once per endpoint of contracts/endpoints.ts. */
  readonly exchange?: (endpoint: EndpointId, inner: RouteHandler, core: SeamContext) => RouteHandler;
}
