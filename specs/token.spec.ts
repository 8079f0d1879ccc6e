/**
 * Document, Endpoints 1 "Request an access token", Resources "Access token response", Authentication 1, 5, 7.
 * Refusals: the document shows no status; the real platform answers 403, RFC 6749 400/401 (reference
 * notes): all three are accepted for credentials and scopes, any 4xx for a malformed request.
 */
import { TOKEN_REFUSAL_STATUSES } from '../contracts/open-behaviours.ts';
import { SCOPES } from '../contracts/scopes.ts';
import { validateTokenResponse } from '../schemas/index.ts';
import { expect, test } from './fixtures/index.ts';
import type { StatusExpectation } from './fixtures/matchers.ts';
import type { TokenForm } from './fixtures/tokens.ts';

/** Seconds `expires_in` may fall short of the configured lifetime: it counts down from issue (reference notes). */
const EXPIRES_IN_SLACK_SECONDS = 5;

test.describe('a valid token request', () => {
  test('gives 200 and a body valid against the token-response schema', async ({ tokens }) => {
    const response = await tokens.request(tokens.form());
    expect(response).toHaveStatus(200);
    expect(response.body).toMatchSchema(validateTokenResponse, { request: response.request });
  });

  test('gives token_type bearer (compared case-insensitively)', async ({ tokens }) => {
    const token = await tokens.issue();
    expect(token.tokenType.toLowerCase(), 'token_type').toBe('bearer');
  });

  test('gives expires_in as a positive integer of seconds', async ({ tokens }) => {
    const token = await tokens.issue();
    expect(Number.isInteger(token.expiresIn) && token.expiresIn > 0, `expires_in ${token.expiresIn} is a positive integer`).toBe(true);
  });

  test('gives expires_in equal to the configured lifetime', async ({ tokens, target }) => {
    const lifetime = target.tokenLifetimeSeconds;
    test.skip(
      lifetime === undefined || !target.capabilities.control,
      'The configured token lifetime is known only for a mock (control plane, LP_TOKEN_LIFETIME).',
    );
    const token = await tokens.issue();
    expect(token.expiresIn, `expires_in of a fresh token, configured lifetime ${lifetime} s`).toBeLessThanOrEqual(lifetime as number);
    expect(token.expiresIn, `expires_in of a fresh token, configured lifetime ${lifetime} s`).toBeGreaterThanOrEqual(
      (lifetime as number) - EXPIRES_IN_SLACK_SECONDS,
    );
  });
});

type Refusal = {
  readonly title: string;
  readonly expected: StatusExpectation;
  readonly json?: boolean;
  readonly form: (valid: Record<string, string>) => TokenForm;
};

const REFUSALS: readonly Refusal[] = [
  { title: 'a wrong client secret', expected: TOKEN_REFUSAL_STATUSES, form: (v) => ({ ...v, client_secret: `${v.client_secret}-wrong` }) },
  { title: 'an unknown client', expected: TOKEN_REFUSAL_STATUSES, form: (v) => ({ ...v, client_id: `unknown-${Date.now()}` }) },
  { title: 'a missing grant_type', expected: '4xx', form: (v) => ({ ...v, grant_type: undefined }) },
  { title: 'a missing client_id', expected: '4xx', form: (v) => ({ ...v, client_id: undefined }) },
  { title: 'a missing client_secret', expected: '4xx', form: (v) => ({ ...v, client_secret: undefined }) },
  { title: 'a missing scope', expected: '4xx', form: (v) => ({ ...v, scope: undefined }) },
  { title: 'an unsupported grant type', expected: '4xx', form: (v) => ({ ...v, grant_type: 'password' }) },
  { title: 'a JSON body instead of a form', expected: '4xx', json: true, form: (v) => v },
];

test.describe('a token request is refused with a 4xx and no token for', () => {
  for (const refusal of REFUSALS) {
    test(refusal.title, async ({ tokens }) => {
      const response = await tokens.request(refusal.form(tokens.form()), { json: refusal.json === true });
      expect(response).toHaveStatus(refusal.expected);
      expect(accessTokenIn(response.body), 'access_token in the refusal body').toBeUndefined();
    });
  }

  test('a scope the key does not hold', async ({ tokens, target }) => {
    const unheld = SCOPES.find((scope) => !target.client.scopes.includes(scope));
    test.skip(unheld === undefined, 'The key holds every scope this contract knows: none is left to ask for.');
    const response = await tokens.request(tokens.form([unheld as string]));
    expect(response).toHaveStatus(TOKEN_REFUSAL_STATUSES);
    expect(accessTokenIn(response.body), 'access_token in the refusal body').toBeUndefined();
  });
});

function accessTokenIn(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>).access_token : undefined;
}
