/** The rules of refusals: the document shows no error body, the platform's fixtures do (judged on every 4xx of the api origin). */
import { held, type Exchange, type JudgeContext, type Judgement, quoted } from './exchange.ts';
import { inArea } from './rule.ts';

export const ERRORS_RULES = inArea('errors', {
  'platform.error-body': {
    level: 'platform',
    statement: 'a 4xx of a resource endpoint or of logout carries {"errors":[{status, title or detail}]}',
    basis: 'platform-docs',
    note: 'The document shows no error body; the platform’s fixtures show this shape.',
    judged: 'every 4xx of the api origin',
    judge: judgeErrorBody,
  },
});

function judgeErrorBody(exchange: Exchange, context: JudgeContext): Judgement {
  if (exchange.origin !== 'api' || exchange.status < 400 || exchange.status > 499) return undefined;
  return held(context.validators.validateErrorBody(exchange.body), `a {"errors":[{status, title or detail}]} body with the ${exchange.status}`, () =>
    exchange.text === '' ? 'no body' : quoted(context, exchange.text, 200),
  );
}
