/**
 * The session pane draws again only for what it shows: the app renders at every change of its
 * state (the sidebar folding, another tab's stream), and the pane's props stay the same objects
 * through those; its own session changing draws it.
 *
 * React draws a component again by giving it a new props object, and keeps the old one when a
 * memoised component is skipped. The page counts, at every commit React reports to a DevTools
 * hook (which it calls in production builds too), the props objects each pane was drawn with.
 * That leans on React's fiber fields (`child`, `sibling`, `memoizedProps`, `type`), stable since
 * React 17, as the bench's store lookup does.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPage, focusedIn } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

type PaneWindow = { airlockPaneRenders: Record<string, number> };

/** Installs the DevTools hook that counts each session pane's renders, by session key. */
async function countPaneRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Fiber = {
      child: Fiber | null;
      sibling: Fiber | null;
      type: unknown;
      memoizedProps: unknown;
    };
    const renders: Record<string, number> = {};
    const lastProps = new Map<string, unknown>();
    (window as unknown as PaneWindow).airlockPaneRenders = renders;
    // The pane is the component whose own element is `<main class="session…">`.
    const paneKey = (fiber: Fiber): string | undefined => {
      const child = fiber.child;
      const props = fiber.memoizedProps as { session?: { key?: string } } | null;
      const className = (child?.memoizedProps as { className?: unknown } | null)?.className;
      return child?.type === 'main' &&
        typeof className === 'string' &&
        className.startsWith('session') &&
        typeof props?.session?.key === 'string'
        ? props.session.key
        : undefined;
    };
    Object.assign(window, {
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        isDisabled: false,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => undefined,
        onScheduleFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => undefined,
        setStrictMode: () => undefined,
        onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => {
          const stack: (Fiber | null)[] = [root.current];
          while (stack.length > 0) {
            const fiber = stack.pop();
            if (!fiber) {
              continue;
            }
            stack.push(fiber.sibling);
            const key = paneKey(fiber);
            if (key === undefined) {
              stack.push(fiber.child);
            } else if (lastProps.get(key) !== fiber.memoizedProps) {
              lastProps.set(key, fiber.memoizedProps);
              renders[key] = (renders[key] ?? 0) + 1;
            }
          }
        },
      },
    });
  });
}

const { page } = useWebApp({ beforeLoad: countPaneRenders });
const { startSession, send, turnEnded, status } = appPage(page);

/** Each pane's renders so far, by session key. */
const renders = () =>
  page().evaluate(() => ({ ...(window as unknown as PaneWindow).airlockPaneRenders }));
/** The key of the session whose tab is shown. */
const shownKey = () =>
  page().getByRole('tab', { selected: true }).getAttribute('data-session') as Promise<string>;

describe('the session pane', () => {
  it('is not drawn again when the app changes around it, and is for its own session', async () => {
    await startSession();
    const first = await shownKey();
    await startSession();
    const second = await shownKey();
    await page().getByRole('tab').first().click();
    await expect.poll(shownKey).toBe(first);
    await status().filter({ hasText: 'Ready' }).waitFor();

    // The app draws again, the shown session unchanged: the sidebar folds away and back.
    const before = await renders();
    const toggle = page().getByRole('button', { name: 'Sessions sidebar' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    expect((await renders())[first]).toBe(before[first]);

    // Its own session changing draws it: a message sent and answered.
    await send('hello');
    await turnEnded('Done');
    expect((await renders())[first]).toBeGreaterThan(before[first] ?? 0);

    // The other tab's stream draws neither pane: the shown one's session did not change, and
    // the other is hidden, kept as it was until it shows again.
    await page().getByRole('tab').nth(1).click();
    await expect.poll(shownKey).toBe(second);
    await send('/long 300');
    await status().filter({ hasText: 'Working' }).waitFor();
    await page().getByRole('tab').first().click();
    await expect.poll(shownKey).toBe(first);
    const whileStreaming = await renders();
    const otherTab = page().getByRole('tab').nth(1);
    await expect.poll(() => otherTab.textContent()).toContain('Ready');
    const after = await renders();
    expect(after[first]).toBe(whileStreaming[first]);
    expect(after[second]).toBe(whileStreaming[second]);
  });
});

describe('a pane kept for a tab shown before', () => {
  const card = () =>
    page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: 'Question from Airlock Demo Agent 0.1.0' });

  it("leaves the shown tab's keys and cards alone: Esc ends its turn only, its card takes the focus", async () => {
    // The first tab's turn waits on its card; its pane stays drawn, hidden, once another shows.
    await startSession();
    await send('/form');
    await card().waitFor();
    const asking = page().locator(`[role=tab][data-session="${await shownKey()}"]`);
    await startSession();
    await send('/long 50000');
    await status().filter({ hasText: 'Working' }).waitFor();

    // Esc cancels the shown tab's turn, not the one of the tab shown before.
    await page().keyboard.press('Escape');
    await turnEnded('Cancelled');
    await expect(asking.textContent()).resolves.toContain('Waits for you');

    // A card in the shown tab takes the focus, however many cards the hidden panes hold.
    await send('/form');
    await expect.poll(() => focusedIn(page())).toBe('input: Name');
    await expect(
      page().evaluate(() => document.activeElement?.closest('#session-panel') != null),
    ).resolves.toBe(true);

    // The first tab shows its card as it was left, still waiting.
    await asking.click();
    await card().getByRole('textbox', { name: 'Name' }).waitFor();
    await expect(page().title()).resolves.toBe('(2) Airlock');
  });
});
