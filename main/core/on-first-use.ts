/**
 * CommonJS dependencies loaded when first used rather than when Airlock starts: what only a
 * sign-in terminal or an agent's install needs costs nothing until then.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `id`, loaded by the first call of the function returned (Node keeps it for the next ones). */
export function onFirstUse<T>(id: string): () => T {
  return () => load(id) as T;
}
