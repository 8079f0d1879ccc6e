/** Seeded users with the attributes the platform docs list (the document shows only the endpoint); the control plane never changes them. */

import { ItemRandom, opaqueId } from './random.ts';
import type { TimestampFormat } from './timestamps.ts';

const FIRST = ['Ava', 'Noah', 'Mia', 'Liam', 'Zoe', 'Omar', 'Yuki', 'Lena', 'Ravi', 'Sofia', 'Ethan', 'Amara'] as const;
const LAST = ['Chen', 'Smith', 'Garcia', 'Müller', 'Okafor', 'Tanaka', 'Dubois', 'Kowalski', 'Silva', 'Patel'] as const;
const ROLES = ['Admin', 'LearningProfessional', 'Manager', 'Member', 'Member', 'Member'] as const;
const VISIBILITY = ['Everyone', 'Organization', 'Private'] as const;
const JOBS = ['Software Engineer', 'Product Manager', 'Data Analyst', 'Designer', 'Sales Lead', 'HR Partner'] as const;
const PLACES = ['Salt Lake City, UT', 'Dublin, Ireland', 'Toronto, ON', 'Berlin, Germany', 'Remote'] as const;
const LANGUAGES = ['en', 'en-GB', 'de', 'fr', 'es'] as const;

const CREATED_FROM_MS = Date.UTC(2018, 0, 1);
const CREATED_SPAN_MS = Date.UTC(2025, 0, 1) - CREATED_FROM_MS;

export type UserItem = { readonly id: string; readonly attributes: Record<string, string | boolean | null> };

export function seededUser(seed: number, index: number, timestamp: TimestampFormat): UserItem {
  const r = new ItemRandom(seed, index, 2);
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const login = `${first}.${last}${index}`.toLowerCase().replace('ü', 'ue');
  const createdMs = CREATED_FROM_MS + Math.floor(r.next() * CREATED_SPAN_MS);
  const lastLogin = r.chance(0.15) ? null : timestamp(createdMs + Math.floor(r.next() * 365 * 86_400_000));
  return {
    id: opaqueId('u', index),
    attributes: {
      'employee-id': `E${(100_000 + index).toString()}`,
      'first-name': first,
      'last-name': last,
      'full-name': `${first} ${last}`,
      'organization-email': `${login}@example.com`,
      'personal-email': r.chance(0.3) ? `${login}@mail.example.net` : null,
      'profile-visibility': r.pick(VISIBILITY),
      bio: r.chance(0.5) ? `${r.pick(JOBS)} who likes learning.` : '',
      location: r.pick(PLACES),
      'profile-image-url': `https://images.example.com/users/${index}.png`,
      'login-disabled': r.chance(0.05),
      restricted: r.chance(0.05),
      'permission-role': r.pick(ROLES),
      'job-role': r.pick(JOBS),
      'preferred-language': r.pick(LANGUAGES),
      'created-at': timestamp(createdMs),
      'last-login-at': lastLogin,
    },
  };
}
