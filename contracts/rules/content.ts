/**
 * The rules of content items (document, Resources, Resource object and Content item attributes; List content items) and the platform's choices it leaves open.
 * Page rules judge every served content page; content-attributes.schema.json holds the platform's timestamps: what the document allows is told apart here.
 */
import { held, type Exchange, type JudgeContext, type Judgement } from './exchange.ts';
import { absolute, listed, otherTypes, type Page, pageOf, queryValues } from './page.ts';
import { inArea } from './rule.ts';
import { formatErrors } from './schema-errors.ts';
import { namesCalendarMoment, parseZonelessTimestamp } from '../timestamps.ts';

export const CONTENT_RULES = inArea('content', {
  'content.type': {
    level: 'contract',
    statement: 'every item of the content list has type content',
    section: 'Resources, Resource object',
    quote: 'type | string | Kind of resource, for a content item `content`.',
    judged: 'every 2xx content page',
    judge: judgeType,
  },
  'content.attributes': {
    level: 'contract',
    statement:
      'every content item carries each documented attribute with its documented type and a value it names: no negative duration or learning-minutes, a publish-date that is a timestamp or null (hyphenated names; more attributes allowed)',
    section: 'Resources, Content item attributes',
    quote:
      'Attribute names use hyphens. content-type | string … is-obsolete | boolean … duration | number (decimal) | Unit is given by `duration-type`. … learning-minutes | number (decimal) … publish-date | string timestamp or null | Null when not set.',
    judged: 'every 2xx content page',
    judge: attributeJudge('contract', 'every documented attribute with its type and a value it can have'),
  },
  'content.timestamps': {
    level: 'contract',
    statement: 'created-at and modified-at are ISO 8601 date-times without a time zone, each naming a day and time the calendar has',
    section: 'Resources, Content item attributes',
    quote: 'created-at | string, timestamp without time zone, ISO 8601 style with fractional seconds. modified-at | string, same format as created-at.',
    judged: 'every 2xx content page',
    judge: attributeJudge('stamps', 'ISO 8601 timestamps without a time zone'),
  },
  'content.limit': {
    level: 'contract',
    statement: 'a page holds at most limit items',
    section: 'Endpoints, 3. List content items',
    quote: 'limit | integer | Number of items per page.',
    judged: 'every 2xx content page of a request with a limit of 1 or more',
    judge: judgeLimit,
  },
  'platform.limit-bounds': {
    level: 'platform',
    statement: 'limit defaults to 100 and goes up to 1000; out of range, a 4xx or a page within the bounds',
    basis: 'platform-docs',
    note: 'The document shows neither the default nor the maximum of limit.',
  },
  'platform.filters': {
    level: 'platform',
    statement:
      'filter[start_date] / filter[end_date] keep items created from / before a yyyy-mm-dd day, filter[modified_after] / filter[modified_before] items modified after / before it',
    basis: 'platform-docs',
    note: 'The document says date filters exist but not their names or meaning.',
  },
  'platform.query-refusals': {
    level: 'platform',
    statement: 'an unknown or unreadable query parameter is refused with a 4xx naming it',
    basis: 'mock',
    note: 'The document does not say what a service does with a parameter it does not know or cannot read.',
  },
  'platform.timestamp-fraction': {
    level: 'platform',
    statement: 'timestamps carry 1 to 7 fractional digits',
    basis: 'platform-docs',
    note: 'The platform writes 1 to 7 digits (2022-03-13T21:31:12.44); a zero fraction may be dropped by other serialisers.',
    judged: 'every 2xx content page',
    judge: attributeJudge('fractions', '1 to 7 fractional digits'),
  },
  'platform.publish-date-format': {
    level: 'platform',
    statement: 'publish-date, when set, is written like created-at: no time zone, 1 to 7 fractional digits',
    basis: 'platform-docs',
    note: 'The document gives publish-date only as a "string timestamp or null"; the same format is stated for modified-at, not for publish-date. The platform writes its timestamps alike.',
    judged: 'every 2xx content page',
    judge: attributeJudge('publishDates', 'publish-date written like created-at (no zone, 1 to 7 fractional digits)'),
  },
  'platform.modified-after-created': {
    level: 'platform',
    statement: 'no item is modified before it was created: modified-at is not before created-at',
    basis: 'mock',
    note: 'The document names created-at and modified-at but gives them no time zone, so it cannot order them; an item modified before it existed is a service writing the two in different zones, or a wrong one.',
    judged: 'every 2xx content page',
    judge: attributeJudge('order', 'modified-at at or after created-at'),
  },
  'platform.content-values': {
    level: 'platform',
    statement: 'content-type and duration-type take the values the platform documents',
    basis: 'platform-docs',
    note: 'The document does not list the allowed values of content-type, format, duration-type and provider.',
  },
});

function judgeType(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context, 'content');
  if (page === undefined) return undefined;
  const types = otherTypes(page.data, 'content');
  return held(types.length === 0, 'items of type "content"', () => `type ${types.map((t) => JSON.stringify(t)).join(', ')}`);
}

function judgeLimit(exchange: Exchange, context: JudgeContext): Judgement {
  const page = pageOf(exchange, context, 'content');
  const requested = absolute(exchange.request.url);
  if (page === undefined || requested === undefined) return undefined;
  // One limit of 1 or more bounds the page; none, several or another value leave it open.
  const limits = queryValues(requested, 'limit');
  const limit = limits.length === 1 && /^\d+$/.test(limits[0] ?? '') ? Number(limits[0]) : undefined;
  if (limit === undefined || limit < 1) return undefined;
  return held(page.data.length <= limit, `at most ${limit} items`, () => String(page.data.length));
}

/** The judge of one kind of attribute problem: it holds when a served content page has none. */
function attributeJudge(kind: keyof AttributeProblems, expected: string) {
  return (exchange: Exchange, context: JudgeContext): Judgement => {
    const problems = attributeProblems(exchange, context)?.[kind];
    return problems && held(problems.length === 0, expected, () => `\n${listed(unique(problems))}`);
  };
}

/** The document's "ISO 8601 style with fractional seconds, without time zone"; a zero fraction may be dropped. */
const CONTRACT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/;
/** The attributes whose format the document states: "timestamp without time zone", and "same format as created-at". */
const TIMESTAMP_ATTRIBUTES = ['created-at', 'modified-at'];
/** The document gives publish-date as "string timestamp or null" only: null or any timestamp is its contract; the schema's (created-at's) a platform rule. */
const PUBLISH_DATE = 'publish-date';
/** A timestamp in any format writes its moment in digits: "", "none" or "not set" is no timestamp. */
const ANY_TIMESTAMP = /\d/;

interface AttributeProblems {
  /** Attributes missing, of another type than the document's, or with a value they cannot have. */
  readonly contract: string[];
  /** created-at / modified-at that are no timestamp without a zone. */
  readonly stamps: string[];
  /** Timestamps the document allows, with other than the platform's 1 to 7 fractional digits. */
  readonly fractions: string[];
  /** publish-date strings not written like created-at. */
  readonly publishDates: string[];
  /** Items whose modified-at comes before their created-at. */
  readonly order: string[];
}

/** What the attribute schema finds on each item of a served content page, sorted by the rule it breaks. */
function attributeProblems(exchange: Exchange, context: JudgeContext): AttributeProblems | undefined {
  const page: Page | undefined = pageOf(exchange, context, 'content');
  if (page === undefined) return undefined;
  const validate = context.validators.validateContentAttributes;
  const problems: AttributeProblems = { contract: [], stamps: [], fractions: [], publishDates: [], order: [] };
  page.data.forEach((item, i) => {
    const attributes = (item as { attributes?: unknown }).attributes;
    if (typeof attributes !== 'object' || attributes === null) return;
    // The pattern lets through what names no day (2020-02-30): each written timestamp must read back as one.
    for (const name of [...TIMESTAMP_ATTRIBUTES, PUBLISH_DATE]) {
      const value = (attributes as Record<string, unknown>)[name];
      if (typeof value !== 'string' || !CONTRACT_TIMESTAMP.test(value) || namesCalendarMoment(value)) continue;
      (name === PUBLISH_DATE ? problems.publishDates : problems.stamps).push(`data/${i}/attributes/${name}: ${value} names no moment of the calendar`);
    }
    const [created, modified] = TIMESTAMP_ATTRIBUTES.map((name) => (attributes as Record<string, unknown>)[name]);
    if (parseZonelessTimestamp(String(modified)) < parseZonelessTimestamp(String(created)))
      problems.order.push(`data/${i}: modified-at ${String(modified)}, created-at ${String(created)}`);
    if (validate(attributes)) return;
    const errors = (validate.errors ?? []).filter((e) => {
      const name = e.instancePath.slice(1);
      const value = (attributes as Record<string, unknown>)[name];
      if (name === PUBLISH_DATE) {
        if (value === null) return false;
        if (typeof value !== 'string' || !ANY_TIMESTAMP.test(value)) return true;
        problems.publishDates.push(`data/${i}/attributes/${name}: ${value}`);
        return false;
      }
      if (TIMESTAMP_ATTRIBUTES.indexOf(name) < 0) return true;
      if (typeof value === 'string' && CONTRACT_TIMESTAMP.test(value)) problems.fractions.push(`data/${i}/attributes/${name}: ${value}`);
      else problems.stamps.push(`data/${i}/attributes/${name}: ${JSON.stringify(value)}`);
      return false;
    });
    if (errors.length > 0) problems.contract.push(`data/${i}: ${formatErrors(errors, attributes)}`);
  });
  return problems;
}

const unique = (lines: readonly string[]) => lines.filter((line, i) => lines.indexOf(line) === i);
