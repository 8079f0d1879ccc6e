/** GET content and users as one flow: bearer → rate limit → scope → resources. Without a valid token nothing is counted; after it, refusals count too. */
import type { ListEndpointId } from '../contracts/endpoints.ts';
import type { AccessControl } from './bearer.ts';
import type { Replies, Reply } from './http.ts';
import { quotaExceeded, type RateLimit } from './rate-limit.ts';
import type { Resources } from './resources.ts';
import type { Exchange } from './routes.ts';

type ListParts = { access: AccessControl; rate: RateLimit; resources: Resources; replies: Replies; baseUrl: () => string };

export class ListEndpoint {
  constructor(private readonly o: ListParts) {}

  respond(endpoint: ListEndpointId, request: Exchange): Reply {
    const auth = this.o.access.authenticate(request.authorization);
    if (!auth.ok) return this.o.replies.api(auth.error, auth.headers);
    const grant = auth.grant;
    const rate = this.o.rate.take(grant);
    if (rate.refused) return this.o.replies.api(quotaExceeded(grant.client), rate.headers);
    const refusal = this.o.access.authorize(grant, endpoint);
    if (refusal !== undefined) return this.o.replies.api(refusal.error, [...refusal.headers, ...rate.headers]);
    const { id: clientId, provider } = grant.client;
    const result = this.o.resources.list({ endpoint, clientId, provider, search: request.search, baseUrl: this.o.baseUrl() });
    return 'error' in result ? this.o.replies.api(result.error, rate.headers) : this.o.replies.json(200, result.body, rate.headers);
  }
}
