/**
 * Bad (and some good) requests to the rest of the api origin: logout (POST {base}/oauth/token, bearer token, JSON body or none) and /_mock (clock, content,
 * stats). Never POST /_mock/reset: it would only wipe the session's tokens; valid clock advances stay small so that the session's tokens outlive the run.
 */
import fc from 'fast-check';
import { CONTENT_ATTRIBUTE_NAMES } from '../../../schemas/registry.ts';
import { type FuzzRequest, fuzzRequestOf, marker } from '../fuzz-harness.ts';
import { anyBody, contentType, framing, usually } from './http.arbitrary.ts';

const refreshToken = fc.oneof(
  fc.constantFrom(marker.refresh('org'), marker.refresh('target')),
  fc.constantFrom<unknown>(5, null, '', [], {}, true, 'x'.repeat(3_000)),
);

const logoutBody = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: refreshToken.map((token) => JSON.stringify({ refresh_token: token })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', '{"refresh_token":', 'refresh_token=abc', '\u0000', '{"refresh_token":"a","refresh_token":"b"}'),
  },
  { weight: 2, arbitrary: anyBody.map((b) => b.body) },
);

const logoutAuthorization: fc.Arbitrary<readonly string[]> = fc.oneof(
  { weight: 6, arbitrary: fc.constant([`Bearer ${marker.token('victim')}`]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<readonly string[]>([], ['Bearer'], ['Bearer nope'], ['Basic eDp5'], [`Bearer ${marker.token('victim')}`, 'Bearer other']),
  },
);

/** POST {base}/oauth/token: logout with a fresh token each time, and every kind of body. */
export const logoutRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({ method: usually('POST', 10, fc.constantFrom('GET', 'PUT', 'DELETE')), authorization: logoutAuthorization, contentType, body: logoutBody, framing })
  .map((parts) => fuzzRequestOf({ origin: 'api', target: '/oauth/token', ...parts }));

const advanceSeconds = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 300 }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 100_000, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(-1, -0.5, 1e300, 8.64e15, '10', null, true, [], {}, 'Infinity') },
);

const attributeValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.boolean(),
  fc.double(),
  fc.constantFrom<unknown>(null, [], {}, '2024-01-01T00:00:00.5', '9999-99-99T99:99:99.9999999', '2024-01-01T00:00:00Z', 1e308),
);
const attributes = fc.dictionary(fc.constantFrom(...CONTENT_ATTRIBUTE_NAMES, 'nope', '__proto__'), attributeValue, { maxKeys: 4 });

const controlCall: fc.Arbitrary<{ method: string; target: string; body: string }> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        advanceSeconds.map((s) => JSON.stringify({ advanceSeconds: s })),
        fc.constantFrom('{"advanceSeconds":1e400}', '{"advanceSeconds":-1e400}', '{"advanceSeconds":}', '', '{}', '[1]'),
      )
      .map((body) => ({ method: 'POST', target: '/_mock/clock', body })),
  },
  { weight: 1, arbitrary: fc.constantFrom('/_mock/clock', '/_mock/stats').map((target) => ({ method: 'GET', target, body: '' })) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        attributes.map((a) => JSON.stringify(a)),
        attributes.map((a) => JSON.stringify({ attributes: a })),
        fc.json({ maxDepth: 2 }),
      )
      .map((body) => ({ method: 'POST', target: '/_mock/content', body })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(fc.stringMatching(/^c[0-9a-z]{7}$/), fc.constantFrom('', '%zz', '..', 'c0000000', '%2F', 'x'.repeat(300))), attributes)
      .map(([id, a]) => ({ method: 'PATCH', target: `/_mock/content/${id}`, body: JSON.stringify(a) })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.constantFrom('/_mock/reset', '/_mock/clock', '/_mock/content', '/_mock/stats', '/_mock/nope'),
      )
      .map(([method, target]) => ({ method, target, body: '' })),
  },
);

export const controlRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({ call: controlCall, contentType, framing })
  .map(({ call, ...rest }) => fuzzRequestOf({ origin: 'api', ...call, ...rest }));
