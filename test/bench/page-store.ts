/**
 * The app's store, read from inside the page, for figures that the screen cannot give: the
 * transcript list is virtualised, so only the rows near the viewport are in the DOM, while the
 * store holds every row.
 *
 * The app does not expose its store (nothing in the product should), so the bench finds it where
 * React keeps it: the props of the root component, `<App store={store} />`, reached from the
 * React root on `#root`. That leans on React's internal fiber fields (`__reactContainer$…`,
 * `child`, `sibling`, `memoizedProps`), stable since React 17; if they change, the lookup throws
 * and says so, rather than the bench reporting nothing.
 */
import type { Page } from 'playwright-core';
import type { Store } from '../../renderer/src/state/store';

/** What {@link exposeStore} adds to the page's window. */
export type StoreWindow = { airlockBenchStore(): Store };

/** Defines `window.airlockBenchStore()` in every document the page loads, before the app. */
export async function exposeStore(page: Page): Promise<void> {
  // tsx (esbuild, keepNames) wraps named functions in `__name(…)`, which the page lacks.
  await page.addInitScript('globalThis.__name = (target) => target');
  await page.addInitScript(() => {
    type Fiber = { child: Fiber | null; sibling: Fiber | null; memoizedProps?: unknown };
    (window as unknown as StoreWindow).airlockBenchStore = () => {
      const root = document.getElementById('root');
      const key = root
        ? Object.keys(root).find((name) => name.startsWith('__reactContainer$'))
        : '';
      const stack: (Fiber | null)[] = [
        key ? (root as unknown as Record<string, Fiber>)[key]! : null,
      ];
      while (stack.length > 0) {
        const fiber = stack.pop();
        if (!fiber) {
          continue;
        }
        const store = (fiber.memoizedProps as { store?: Store } | null)?.store;
        if (store && typeof store.getState === 'function') {
          return store;
        }
        stack.push(fiber.sibling, fiber.child);
      }
      throw new Error('bench: no React component on #root has a `store` prop (did React change?)');
    };
  });
}

/**
 * The agent's text in the active session's store since its last prompt, joined, as it would be
 * if every row were on screen at once.
 */
export function storeReplyText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const state = (window as unknown as StoreWindow).airlockBenchStore().getState();
    const rows = state.activeKey ? (state.transcripts[state.activeKey]?.rows ?? []) : [];
    const from = rows.findLastIndex((row) => row.kind === 'prompt') + 1;
    return (
      rows
        .slice(from)
        // Past its caps, a message's text is held back in overflow rows (state/text-cap.ts).
        .map((row) =>
          (row.kind === 'text' || row.kind === 'overflow') && row.role === 'agent' ? row.text : '',
        )
        .join('')
    );
  });
}

/** The active session's rows from `from` on, each as its index and its text ('' for none). */
export function storeRowTexts(page: Page, from: number): Promise<[number, string][]> {
  return page.evaluate((first) => {
    const state = (window as unknown as StoreWindow).airlockBenchStore().getState();
    const rows = state.activeKey ? (state.transcripts[state.activeKey]?.rows ?? []) : [];
    return rows.flatMap((row, index): [number, string][] =>
      index < first ? [] : [[index, row.kind === 'text' ? row.text : '']],
    );
  }, from);
}

/** The index in the active session's rows (the list's `data-index`) of the last prompt. */
export function lastPromptRow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const state = (window as unknown as StoreWindow).airlockBenchStore().getState();
    const rows = state.activeKey ? (state.transcripts[state.activeKey]?.rows ?? []) : [];
    return rows.findLastIndex((row) => row.kind === 'prompt');
  });
}
