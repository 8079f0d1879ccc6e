/** Marks the canary's output (specs/self/safety/leak-canary.spec.ts) so the leak gate can show where it looked. */
export const LEAK_MARKER = 'leak-canary-marker-5d1c';
