/**
 * Bad (and a few good) token requests: fields missing, repeated, unknown, garbled; broken encoding; wrong or no content type; Basic headers valid, malformed,
 * or beside form credentials; right and wrong secrets of the attacked keys (the failure throttle is meant to trip); refresh tokens right, another's, invented.
 */
import fc from 'fast-check';
import { ATTACKED, type FuzzRequest, fuzzRequestOf, marker } from '../fuzz-harness.ts';
import { contentType, extraHeaders, framing, host, usually } from './http.arbitrary.ts';

const grantType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('client_credentials', 'refresh_token') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'password',
      'authorization_code',
      'CLIENT_CREDENTIALS',
      'client_credentials ',
      '',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

const clientId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(ATTACKED.id, ATTACKED.otherId) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z-]{1,20}$/) },
  { weight: 1, arbitrary: fc.constantFrom('', ' fuzz-target', 'FUZZ-TARGET', 'fuzz-target\u0000', 'x'.repeat(5_000)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

const secret = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(ATTACKED.secret, ATTACKED.otherSecret) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', `${ATTACKED.secret} `, ATTACKED.secret.toUpperCase(), 's'.repeat(10_000)) },
);

const scope = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('content:read', 'content:read,users:read', 'users:read users:write', ' content:read , ') },
  { weight: 2, arbitrary: fc.constantFrom('', ',', 'admin', 'content:delete', 'content:read,content:read', '*', 'content:', ':read', 'CONTENT:READ') },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

const refreshToken = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(marker.refresh('target'), marker.refresh('org')) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{0,60}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

const fieldValue = { grant_type: grantType, client_id: clientId, client_secret: secret, scope, refresh_token: refreshToken };

/** One form field: a known name with a plausible or hostile value, or an unknown name. */
const field: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(...Object.entries(fieldValue).map(([name, value]) => value.map((v): [string, string] => [name, v]))) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })) },
);

/** A nearly right request (an attacked key's full form, any secret, up to two fields dropped, repeated or replaced): it reaches the checks and the throttle. */
const nearlyValidFields: fc.Arbitrary<Array<[string, string]>> = fc
  .record({
    grant: fc.constantFrom('client_credentials', 'client_credentials', 'refresh_token'),
    id: fc.constantFrom(ATTACKED.id, ATTACKED.otherId),
    rightSecret: fc.boolean(),
    scope,
    refresh: refreshToken,
    mutations: fc.oneof(
      { weight: 4, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: fc.array(fc.tuple(fc.constantFrom('drop', 'repeat', 'replace'), fc.nat({ max: 4 }), field), { minLength: 1, maxLength: 2 }) },
    ),
  })
  .map(({ grant, id, rightSecret, scope: sc, refresh, mutations }) => {
    const secretOf = id === ATTACKED.id ? ATTACKED.secret : ATTACKED.otherSecret;
    const fields: Array<[string, string]> = [
      ['grant_type', grant],
      ['client_id', id],
      ['client_secret', rightSecret ? secretOf : `${secretOf}-wrong`],
      grant === 'client_credentials' ? ['scope', sc] : ['refresh_token', refresh],
    ];
    for (const [kind, at, replacement] of mutations) {
      const i = at % fields.length;
      if (kind === 'drop') fields.splice(i, 1);
      else if (kind === 'repeat') fields.push(fields[i] ?? replacement);
      else fields[i] = replacement;
    }
    return fields;
  });

/** Form bodies: well encoded, or with broken percent-encoding, stray separators and raw bytes. */
const formBody: fc.Arbitrary<string> = fc
  .record({
    fields: fc.oneof({ weight: 4, arbitrary: nearlyValidFields }, { weight: 1, arbitrary: fc.array(field, { maxLength: 7 }) }),
    encoding: fc.constantFrom('proper', 'proper', 'proper', 'proper', 'raw', 'broken'),
    noise: fc.constantFrom('', '', '', '', '&', '&&', '=', '==&', '%', '%zz', '%e9', '+', ';', '\u00e9'),
  })
  .map(({ fields, encoding, noise }) => {
    const pairs =
      encoding === 'proper'
        ? new URLSearchParams(fields).toString()
        : fields.map(([n, v]) => `${n}=${encoding === 'raw' ? v : v.replace(/%/g, '%%').replace(/[a-z]/, '%G')}`).join('&');
    return `${pairs}${noise}`;
  });

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.tuple(clientId, secret).map(([id, s]) => basic(id, s)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Basic',
      'Basic ',
      'Basic !!!',
      'Basic Zm9v',
      `basic   ${Buffer.from(':x').toString('base64')}`,
      'Digest x',
      marker.token('org'),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** A request to the token endpoint: mostly POST of a form, sometimes with everything else wrong too. */
export const tokenRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: usually('POST', 12, fc.constantFrom('GET', 'PUT', 'HEAD', 'OPTIONS')),
    query: usually('', 8, fc.constantFrom('?grant_type=client_credentials', '?x', '?%zz')),
    contentType: usually('application/x-www-form-urlencoded', 3, contentType),
    authorization,
    body: fc.oneof({ weight: 6, arbitrary: formBody }, { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) }),
    headers: usually([], 6, extraHeaders),
    host,
    framing,
  })
  .map(({ query, ...rest }) => fuzzRequestOf({ origin: 'auth', target: `/oauth/token${query}`, ...rest }));
