/**
 * The content data set with history: seeded items (indexes 0..seeded-1) computed from the seed, created items appended, every change a new version stamped with
 * the store's revision. A snapshot reads "item i as of revision r" (multi-version concurrency control): it costs two numbers, whatever the size of the data.
 */
import { parseZonelessTimestamp } from '../../contracts/timestamps.ts';
import { type ContentAttributes, type ContentMeta, type ContentVersion, seededContent, seededContentMeta } from './content.ts';
import { indexOfOpaqueId, opaqueId } from './random.ts';
import type { TimestampFormat } from './timestamps.ts';

export class ContentStore {
  #revision = 0;
  /** Versions after the seed, oldest first, per index; created items have no seeded version. */
  #changes = new Map<number, ContentVersion[]>();
  #created = 0;

  /** `publishDate` writes publish-date, `timestamp` the other times. */
  constructor(private readonly o: { seed: number; items: number; timestamp: TimestampFormat; publishDate: TimestampFormat }) {}

  /** Revision of the newest change; a snapshot taken now sees exactly the versions with rev ≤ this. */
  get revision(): number {
    return this.#revision;
  }

  /** Items that exist now; created items are appended, so a snapshot's items are indexes below its count. */
  count(): number {
    return this.o.items + this.#created;
  }

  /** Item `index` as of revision `rev`, or undefined if it did not exist then. */
  at(index: number, rev: number): ContentVersion | undefined {
    const changed = this.#changes.get(index)?.findLast((version) => version.rev <= rev);
    if (changed !== undefined) return changed;
    return index < this.o.items ? seededContent(this.o.seed, index, this.o.timestamp, this.o.publishDate) : undefined;
  }

  /** What filters read of item `index` at `rev`, without building the item when it is unchanged seed data. */
  metaAt(index: number, rev: number): ContentMeta | undefined {
    if (this.#changes.has(index)) return this.at(index, rev);
    return index < this.o.items ? seededContentMeta(this.o.seed, index) : undefined;
  }

  /** Whether item `index` has a version newer than the seed (its rendering cannot be cached by index). */
  changed(index: number): boolean {
    return this.#changes.has(index);
  }

  indexOf(id: string): number | undefined {
    const index = indexOfOpaqueId('c', id);
    return index !== undefined && index < this.count() ? index : undefined;
  }

  /** Appends an item made of `attributes` over defaults; created-at and modified-at default to now. */
  create(attributes: Partial<ContentAttributes>, nowMs: number): ContentVersion {
    const index = this.o.items + this.#created;
    const id = opaqueId('c', index);
    const now = this.o.timestamp(nowMs);
    const merged: ContentAttributes = {
      'content-type': 'Article',
      'external-id': `mock-${id}`,
      title: 'Untitled',
      summary: '',
      url: `https://content.example.com/mock/${id}`,
      format: 'Article',
      'is-obsolete': false,
      'image-url': `https://images.example.com/mock/${id}.jpg`,
      language: 'en',
      duration: 0,
      'duration-type': 'Minutes',
      provider: 'Mock Academy',
      'is-internal': false,
      owner: '',
      'learning-minutes': 0,
      'publish-date': null,
      'platform-url': `https://platform.example.com/content/${id}`,
      ...attributes,
      'created-at': attributes['created-at'] ?? now,
      'modified-at': attributes['modified-at'] ?? now,
    };
    // Times given by the caller are read back from their text (the schema made sure they parse); defaults are now.
    const createdMs = attributes['created-at'] === undefined ? nowMs : parseZonelessTimestamp(attributes['created-at']);
    const modifiedMs = attributes['modified-at'] === undefined ? nowMs : parseZonelessTimestamp(attributes['modified-at']);
    const version = this.#version(id, merged, createdMs, modifiedMs);
    this.#changes.set(index, [version]);
    this.#created++;
    return version;
  }

  /** A new version of item `index` with `attributes` applied and modified-at set to now. */
  modify(index: number, attributes: Partial<ContentAttributes>, nowMs: number): ContentVersion | undefined {
    const current = this.at(index, this.#revision);
    if (!current) return undefined;
    const merged: ContentAttributes = { ...current.attributes, ...attributes, 'modified-at': this.o.timestamp(nowMs) };
    const createdMs = attributes['created-at'] === undefined ? current.createdMs : parseZonelessTimestamp(attributes['created-at']);
    const version = this.#version(current.id, merged, createdMs, nowMs);
    this.#changes.set(index, [...(this.#changes.get(index) ?? []), version]);
    return version;
  }

  /** Back to the seed: history and created items dropped. */
  reset(): void {
    this.#changes = new Map();
    this.#created = 0;
    this.#revision = 0;
  }

  #version(id: string, attributes: ContentAttributes, createdMs: number, modifiedMs: number): ContentVersion {
    this.#revision++;
    return { rev: this.#revision, id, attributes, createdMs, modifiedMs, provider: attributes.provider };
  }
}
