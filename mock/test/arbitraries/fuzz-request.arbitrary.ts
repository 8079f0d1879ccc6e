/** The fuzz mix: a bad request of any kind, weighted towards the most parsing (token forms, listing queries). */
import fc from 'fast-check';
import type { FuzzRequest } from '../fuzz-harness.ts';
import { controlRequest, logoutRequest } from './control-request.arbitrary.ts';
import { oddRequest } from './http.arbitrary.ts';
import { listRequest } from './list-request.arbitrary.ts';
import { tokenRequest } from './token-request.arbitrary.ts';

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 5, arbitrary: tokenRequest },
  { weight: 7, arbitrary: listRequest },
  { weight: 2, arbitrary: logoutRequest },
  { weight: 2, arbitrary: controlRequest },
  { weight: 4, arbitrary: oddRequest },
);
