/** Content items: seeded ones computed from (seed, index), control-plane changes kept as versions by revision, so that a snapshot never copies data. */
import type { ContentAttributes } from '../../schemas/types.ts';
import { hash32, ItemRandom, opaqueId } from './random.ts';
import type { TimestampFormat } from './timestamps.ts';

/** The attributes' shape is the schema's (schemas/types.ts): the mock serves exactly what the suite checks. */
export type { ContentAttributes };

/** One version of an item: what it looked like from revision `rev` on. */
export interface ContentVersion extends ContentMeta {
  readonly rev: number;
  readonly id: string;
  readonly attributes: ContentAttributes;
}

/** The providers of seeded items; the mock's default provider key belongs to the first. */
const SEED_PROVIDERS = ['Mock Academy', 'Coursera', 'LinkedIn Learning', 'Pluralsight', 'TED', 'Harvard ManageMentor'] as const;

const KINDS = [
  { type: 'Article', formats: ['Article', 'Blog Post'], durationType: 'Words', duration: [300, 4000] },
  { type: 'Book', formats: ['Book', 'E-Book'], durationType: 'Hours', duration: [2, 20] },
  { type: 'Video', formats: ['Video', 'Webinar'], durationType: 'Seconds', duration: [60, 5400] },
  { type: 'Course', formats: ['Course', 'E-Learning'], durationType: 'Hours', duration: [1, 40] },
  { type: 'Assessment', formats: ['Assessment', 'Quiz'], durationType: 'Minutes', duration: [5, 90] },
  { type: 'Podcast', formats: ['Podcast', 'Audio'], durationType: 'Minutes', duration: [10, 120] },
  { type: 'Event', formats: ['Event', 'Workshop'], durationType: 'Days', duration: [1, 5] },
] as const;
const LANGUAGES = ['en', 'en-US', 'en-GB', 'de', 'fr', 'es', 'ja', 'pt-BR', 'nl'] as const;
const SUBJECTS = [
  'Leadership',
  'Data Analysis',
  'Negotiation',
  'Cloud Security',
  'Design Thinking',
  'Public Speaking',
  'TypeScript',
  'Project Management',
  'Machine Learning',
  'Customer Success',
  'Accessibility',
  'Financial Modelling',
] as const;
const ANGLES = ['Foundations of', 'Advanced', 'A Practical Guide to', 'Getting Started with', 'Mastering', 'The Science of', 'Ten Lessons in'] as const;
const OWNERS = ['Learning Team', 'Jordan Smith', 'People Operations', 'Ava Chen', 'Engineering Academy', ''] as const;

/** Seeded items were created between these instants: fixed, so data does not depend on the clock. */
const CREATED_FROM_MS = Date.UTC(2019, 0, 1);
const CREATED_SPAN_MS = Date.UTC(2025, 6, 1) - CREATED_FROM_MS;
const MODIFIED_UNTIL_MS = Date.UTC(2026, 0, 1);

const MINUTES_PER_UNIT: Record<string, number> = { Words: 1 / 230, Seconds: 1 / 60, Minutes: 1, Hours: 60, Days: 480 };

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** What filters and provider isolation look at, drawn first so a scan need not build whole items. */
export type ContentMeta = { readonly createdMs: number; readonly modifiedMs: number; readonly provider: string };

function drawMeta(r: ItemRandom): ContentMeta {
  const createdMs = CREATED_FROM_MS + Math.floor(r.next() * CREATED_SPAN_MS);
  const modifiedMs = r.chance(0.4) ? createdMs + Math.floor(r.next() * (MODIFIED_UNTIL_MS - createdMs)) : createdMs + r.int(5000);
  return { createdMs, modifiedMs, provider: r.pick(SEED_PROVIDERS) };
}

/** The meta of seeded item `index`: a few hundred nanoseconds, for scans over a million items. */
export function seededContentMeta(seed: number, index: number): ContentMeta {
  return drawMeta(new ItemRandom(seed, index, 1));
}

/** Item `index` of `seed`, as it was seeded (revision 0), its times written by `timestamp` (publish-date by `publishDate`). Pure: same inputs, same item. */
export function seededContent(seed: number, index: number, timestamp: TimestampFormat, publishDate: TimestampFormat): ContentVersion {
  const r = new ItemRandom(seed, index, 1);
  const { createdMs, modifiedMs, provider } = drawMeta(r);
  const id = opaqueId('c', index);
  const kind = r.pick(KINDS);
  const subject = r.pick(SUBJECTS);
  const title = `${r.pick(ANGLES)} ${subject}`;
  const [low, high] = kind.duration;
  const duration = Math.round((low + r.next() * (high - low)) * 10) / 10;
  const learningMinutes = Math.round(duration * (MINUTES_PER_UNIT[kind.durationType] ?? 1) * 100) / 100;
  const published = r.chance(0.2) ? null : publishDate(createdMs - r.int(30 * 86_400_000));
  const providerSlug = slug(provider);
  return {
    rev: 0,
    id,
    createdMs,
    modifiedMs,
    provider,
    attributes: {
      'content-type': kind.type,
      'external-id': `${providerSlug}-${hash32(seed, index, 7).toString(16)}`,
      title,
      summary: `${title}: a ${kind.type.toLowerCase()} by ${provider} on ${subject.toLowerCase()}.`,
      url: `https://content.example.com/${providerSlug}/${id}`,
      format: r.pick(kind.formats),
      'is-obsolete': r.chance(0.08),
      'image-url': `https://images.example.com/${providerSlug}/${id}.jpg`,
      language: r.pick(LANGUAGES),
      duration,
      'duration-type': kind.durationType,
      provider,
      'is-internal': r.chance(0.1),
      owner: r.pick(OWNERS),
      'learning-minutes': learningMinutes,
      'created-at': timestamp(createdMs),
      'modified-at': timestamp(modifiedMs),
      'publish-date': published,
      'platform-url': `https://platform.example.com/content/${id}`,
    },
  };
}
