/** docs/rules.md: every rule with its level and the tests that state it (the list `npm run rules` prints). */
import path from 'node:path';
import { coverage } from '../../harness/report/coverage.ts';
import { renderRulesMarkdown } from '../../harness/report/render.ts';
import { listedTests } from '../../harness/report/rules-cli.ts';
import type { GeneratedFile } from './generated.ts';

export function rulesDocs(): GeneratedFile[] {
  return [{ path: path.join('docs', 'rules.md'), content: renderRulesMarkdown(coverage(listedTests())), format: 'markdown' }];
}
