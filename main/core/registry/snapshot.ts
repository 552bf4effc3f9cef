/**
 * The registry copy bundled with Airlock: the sample entries of `spec/acp-registry`, icons
 * inlined, built by `npm run registry:snapshot` (build/registry-snapshot.ts). It is what the
 * catalogue shows before the registry has ever been reached, read like any other copy.
 */
import { type Registry, readRegistry } from './format.js';
import bundled from './snapshot.json';

let read: Registry | undefined;

/** The bundled copy, read through {@link readRegistry} (once; each caller gets its own copy). */
export function snapshotRegistry(): Registry {
  read ??= readRegistry(bundled as unknown);
  return structuredClone(read);
}
