/**
 * The folder's files that fit the `@` mention being typed, from the core (`files:complete`).
 *
 * Asked once typing pauses, not at each key; an answer counts only for the query it was asked
 * for, so a slow answer never replaces a newer one.
 */
import { useEffect, useState } from 'react';
import type { AirlockApi } from '../../preload/shared/contract';
import type { FileCompletion } from '../../preload/shared/prompt-content';

/** How long typing pauses before the core is asked, in milliseconds. */
export const COMPLETION_DELAY_MS = 120;

/** The completion for `query` in tab `key`; `undefined` while it is not known (or no query). */
export function useFileCompletion(
  api: AirlockApi,
  key: string,
  query: string | undefined,
): FileCompletion | undefined {
  const [answer, setAnswer] = useState<{ key: string; query: string; result: FileCompletion }>();
  useEffect(() => {
    if (query === undefined) {
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      api
        .invoke('files:complete', { key, query })
        .then((result) => {
          if (current) {
            setAnswer({ key, query, result });
          }
        })
        // A failed completion offers nothing; typing goes on.
        .catch(() => undefined);
    }, COMPLETION_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, key, query]);
  return answer && answer.key === key && answer.query === query ? answer.result : undefined;
}
