/**
 * GET /api/v2/content and GET /api/v2/users as one flow: bearer token → rate limit → scope →
 * resources. A request without a valid token is not counted (no client is known); everything
 * after is, refusals of the scope or the query included.
 */
import type { ListEndpointId } from '../contracts/endpoints.ts';
import type { AccessControl } from './bearer.ts';
import type { Replies, Reply } from './http.ts';
import { quotaExceeded, type RateLimit } from './rate-limit.ts';
import type { Resources } from './resources.ts';
import type { Exchange } from './routes.ts';

export class ListEndpoint {
  readonly #access: AccessControl;
  readonly #rate: RateLimit;
  readonly #resources: Resources;
  readonly #replies: Replies;
  readonly #baseUrl: () => string;

  constructor(o: { access: AccessControl; rate: RateLimit; resources: Resources; replies: Replies; baseUrl: () => string }) {
    this.#access = o.access;
    this.#rate = o.rate;
    this.#resources = o.resources;
    this.#replies = o.replies;
    this.#baseUrl = o.baseUrl;
  }

  respond(endpoint: ListEndpointId, request: Exchange): Reply {
    const auth = this.#access.authenticate(request.authorization);
    if (!auth.ok) return this.#replies.api(auth.error, auth.headers);
    const grant = auth.grant;
    const rate = this.#rate.take(grant);
    if (rate.refused) return this.#replies.api(quotaExceeded(grant.client), rate.headers);
    const refusal = this.#access.authorize(grant, endpoint);
    if (refusal !== undefined) {
      for (const h of rate.headers) refusal.headers.push(h);
      return this.#replies.api(refusal.error, refusal.headers);
    }
    const result = this.#resources.list({
      endpoint,
      clientId: grant.client.id,
      provider: grant.client.provider,
      search: request.search,
      baseUrl: this.#baseUrl(),
    });
    return 'error' in result ? this.#replies.api(result.error, rate.headers) : this.#replies.json(200, result.body, rate.headers);
  }
}
