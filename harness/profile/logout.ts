/**
 * Probes of the logout endpoint (profile group `logout`), each with a token of its own: `{}` (which
 * every legal service takes) for the answer, then an empty body, then a body that is no JSON. A
 * refused logout leaves its token alive: the ledger logs it out at the end like every other.
 */
import { ENDPOINTS } from '../../contracts/endpoints.ts';
import type { ApiResponse } from '../client/transport.ts';
import { isRefusal, isSuccess, type Probe } from './session.ts';

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
  p.noteRated(response);
  if (isSuccess(response)) p.ledger.delete(token.accessToken);
  return response;
}

export async function probeLogout(p: Probe): Promise<void> {
  const plain = await logout(p, '{}');
  if (plain.status === 204) p.decide('logout.response', '204', 'a logout with {} got 204', plain);
  else if (plain.status === 200)
    p.decide(
      'logout.response',
      plain.text.trim() === '' ? '200-empty' : '200-json',
      `a logout with {} got 200 ${plain.text.trim() === '' ? 'without' : 'with'} a body`,
      plain,
    );
  else p.unknown('logout.response', `a logout with {} got ${plain.status}`, plain);

  const empty = await logout(p, '');
  if (isRefusal(empty)) return p.decide('logout.request', 'json-object', 'a logout with an empty body was refused', empty);
  if (!isSuccess(empty)) return p.unknown('logout.request', `a logout with an empty body got ${empty.status}`, empty);
  const text = await logout(p, 'profile probe: not JSON');
  if (isSuccess(text)) p.decide('logout.request', 'any', 'logouts with an empty body and with a body that is no JSON were served', empty, text);
  else if (isRefusal(text))
    p.decide('logout.request', 'empty-or-json', 'a logout with an empty body was served, one with a body that is no JSON refused', empty, text);
  else p.unknown('logout.request', `a logout with a body that is no JSON got ${text.status}`, text);
}
