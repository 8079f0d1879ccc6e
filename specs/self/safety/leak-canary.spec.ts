/**
 * Run only by the secret-leak gate's child run (specs/self/safety/leak.config.ts). It handles a token the way a failing spec would (failure messages quoting a
 * token response, an attachment, a log line) and fails on purpose, so the gate sees every kind of output a real failure produces. The marker proves the gate
 * looked where it claims: it must be found in each kind of output.
 */
import { validateContentList } from '../../../schemas/index.ts';
import { expect, test } from '../../fixtures/index.ts';
import { redact } from '../../../harness/client/redact.ts';
import { LEAK_MARKER } from '../../../harness/self-check/leak-run.ts';

test(`a failing test writes failure output, attachments and logs (${LEAK_MARKER})`, async ({ api, tokens }, testInfo) => {
  const token = await tokens.issue();
  const response = await tokens.request(tokens.form());
  console.log(redact(`${LEAK_MARKER} log line: Authorization: Bearer ${token.accessToken}`));
  await testInfo.attach('request', {
    body: redact(`${LEAK_MARKER}\nPOST ${response.request.url}\nAuthorization: Bearer ${token.accessToken}\n${response.text}`),
    contentType: 'text/plain',
  });
  await api.list('listContent', { limit: 1 });
  // Failures that quote bodies holding tokens: the messages must come out redacted.
  expect.soft(response, LEAK_MARKER).toHaveStatus(418);
  expect.soft(response.body, LEAK_MARKER).toMatchSchema(validateContentList, { request: response.request });
  expect.soft(redact(JSON.stringify({ marker: LEAK_MARKER, access_token: token.accessToken }))).toBe(LEAK_MARKER);
});
