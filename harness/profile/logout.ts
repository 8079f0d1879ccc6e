/**
 * Probes of the logout endpoint (profile group `logout`), each with a token of its own: `{}` (which
 * every legal service takes) for the answer, then an empty body, then a body that is no JSON. A
 * refused logout leaves its token alive: it is logged out at the end like every other.
 */
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { ApiResponse } from '../client/transport.ts';
import { isRefusal, isSuccess, outcome, type Probe } from './session.ts';

async function logout(p: Probe, body: string): Promise<ApiResponse> {
  const scope = p.target.client.scopes[0];
  const token = await p.issue(scope === undefined ? undefined : [scope]);
  const response = await p.transport.send({
    method: 'POST',
    url: `${p.target.baseUrl}${ENDPOINTS.logout.path}`,
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token.accessToken}` },
    // No body at all for '': Playwright would send an empty string as the JSON text "".
    ...(body === '' ? {} : { body }),
    clientId: p.target.client.clientId,
  });
  if (isSuccess(response)) p.session.ledger.delete(token.accessToken);
  return response;
}

export async function probeLogout(p: Probe): Promise<void> {
  const plain = await logout(p, '{}');
  const bodied = plain.text.trim() !== '';
  const response = plain.status === 204 ? '204' : plain.status === 200 ? (bodied ? '200-json' : '200-empty') : undefined;
  p.settle('logout.response', `a logout with {} (${bodied ? 'a' : 'no'} body)`, response, plain);

  const empty = await logout(p, '');
  if (!isSuccess(empty)) return p.settle('logout.request', 'a logout with an empty body', isRefusal(empty) ? 'json-object' : undefined, empty);
  const text = await logout(p, 'profile probe: not JSON');
  const what = 'a logout with an empty body was served; one with a body that is no JSON';
  p.settle('logout.request', what, outcome(text, 'any', 'empty-or-json'), empty, text);
}
