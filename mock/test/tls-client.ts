/** An HTTPS client as an SDK meets the mock: it trusts the mock's CA (as NODE_EXTRA_CA_CERTS would), every name is loopback; the rest is node:https. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { text } from 'node:stream/consumers';
import { FORM, ORG } from './http-fixtures.ts';

const REQUEST_TIMEOUT_MS = 10_000;

/** Every name leads to 127.0.0.1: name resolution only, the TLS and HTTP of the request are node's. */
export const loopbackLookup: LookupFunction = (_host, options, callback) =>
  dnsLookup('127.0.0.1', options, callback as (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void);

/** One request; rejects with node's error (a certificate refused, a name the certificate lacks) when it fails. */
export async function httpsRequest(url: string, o: { ca?: string; method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const req = request(url, { method: o.method ?? 'GET', headers: o.headers, ca: o.ca, lookup: loopbackLookup, agent: false, timeout: REQUEST_TIMEOUT_MS });
  req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${REQUEST_TIMEOUT_MS} ms`)));
  req.end(o.body);
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  return { status: res.statusCode ?? 0, headers: res.headers, text: await text(res) };
}

/** A token of the default organization key over HTTPS. */
export async function httpsToken(authUrl: string, ca: string): Promise<string> {
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: ORG.id, client_secret: ORG.secret, scope: 'content:read,users:read' });
  const answer = await httpsRequest(`${authUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': FORM }, body: body.toString() });
  if (answer.status !== 200) throw new Error(`token request: expected 200, got ${answer.status} ${answer.text}`);
  return (JSON.parse(answer.text) as { access_token: string }).access_token;
}
