/**
 * The parts of the app that the first screen does not show, each its own script chunk: the form
 * card (RJSF, its validator and re2js), the URL card, the agent settings (with the registry's
 * catalogue), Markdown, the help overlay, the sign-in terminal, and the session view itself
 * (with its virtualised transcript), which the welcome does not show. A part loads on first use
 * and, so that first use seldom waits, ahead of it (`preloadParts`), once the first screen is up:
 * the session view and Markdown at once when it shows a session, else when the page is idle;
 * the cards' files fetched (not run) when the page is idle after a session first shows; the rest
 * when the page is idle later.
 *
 * A part already loaded renders at once, with no fallback frame. One still loading shows its
 * fallback (nothing; the session view's empty pane; Markdown's text as plain paragraphs). One
 * whose file cannot load (the host went away, the install is broken) shows that in words, with
 * Reload, never a blank pane.
 */
import './lazy-parts.css';
import {
  createElement,
  useEffect,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import type { ElicitationCard as ElicitationCardType } from './components/elicitation-card';
import type { UrlCard as UrlCardType } from './components/url-card';
import type { AgentSettings as AgentSettingsType } from './components/agent-settings';
import type { Markdown as MarkdownType } from './components/markdown';
import type { HelpOverlay as HelpOverlayType } from './components/help-overlay';
import type { SignInTerminal as SignInTerminalType } from './components/sign-in-terminal';
import type { SessionView as SessionViewType } from './components/session-view';
import { markdownBlocks } from './components/markdown-blocks';
import { SESSION_PANEL_ID } from './components/session-panel-id';

/** A component loaded on first use; `preload()` loads it ahead. */
export type LazyPart<P> = ComponentType<P> & { preload(): Promise<unknown> };

/** Says that a part could not load, in words, with Reload; the rest of the app goes on. */
function PartFailed() {
  return (
    <div className="part-failed" role="alert">
      <p>
        This part of Airlock could not load. Reload the window to try again; your sessions stay as
        they are.
      </p>
      <button type="button" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}

/**
 * A part from `load`, shown with `fallback` while it loads. Its load is made once, and made
 * again on a later use after it failed.
 *
 * Not React's `lazy` in a `Suspense` boundary: a boundary that has shown its fallback holds what
 * loaded back for up to 300 ms, to batch reveals, and a question must not wait for that. The
 * fallback gives way to the part in the same place; it holds nothing the user could have typed.
 */
function lazyPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  fallback: (props: P) => ReactNode = () => null,
  onFirstUse?: () => void,
): LazyPart<P> {
  let used = false;
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (part) => (loaded = part),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  function Part(props: P) {
    const [part, setPart] = useState<ComponentType<P> | 'failed' | undefined>(() => {
      // Loading starts as the part first renders, not a frame later with the effect.
      if (!loaded) {
        preload().catch(() => undefined);
      }
      return loaded;
    });
    useEffect(() => {
      if (!used) {
        used = true;
        onFirstUse?.();
      }
    }, []);
    useEffect(() => {
      if (part !== undefined) {
        return undefined;
      }
      let mounted = true;
      preload().then(
        (ready) => mounted && setPart(() => ready),
        () => mounted && setPart('failed'),
      );
      return () => {
        mounted = false;
      };
    }, [part]);
    if (part === 'failed') {
      return <PartFailed />;
    }
    return part ? createElement(part, props) : fallback(props);
  }
  Part.displayName = name;
  return Object.assign(Part, { preload });
}

export const SessionView = lazyPart<ComponentProps<typeof SessionViewType>>(
  'SessionView',
  async () => (await import('./components/session-view')).SessionView,
  // The pane is there while its script loads: the shown tab names it as what it controls.
  // Only the shown one is the panel its tab controls (see session-panes.tsx).
  ({ shown = true }) => (
    <main
      id={shown ? SESSION_PANEL_ID : undefined}
      className="session"
      aria-label="Session"
      aria-busy="true"
      hidden={!shown}
      inert={!shown}
    />
  ),
  // Once a session shows, its agent may ask: its cards' files are fetched when the page is next
  // idle, and run when the first card comes.
  () => whenIdle(prefetchCards),
);

export const ElicitationCard = lazyPart<ComponentProps<typeof ElicitationCardType>>(
  'ElicitationCard',
  async () => (await import('./components/elicitation-card')).ElicitationCard,
);

export const UrlCard = lazyPart<ComponentProps<typeof UrlCardType>>(
  'UrlCard',
  async () => (await import('./components/url-card')).UrlCard,
);

export const AgentSettings = lazyPart<ComponentProps<typeof AgentSettingsType>>(
  'AgentSettings',
  async () => (await import('./components/agent-settings')).AgentSettings,
);

type MarkdownProps = ComponentProps<typeof MarkdownType>;

export const Markdown = lazyPart<MarkdownProps>(
  'Markdown',
  async () => (await import('./components/markdown')).Markdown,
  // Until Markdown has loaded, its text as plain paragraphs, one for each block.
  ({ text }: MarkdownProps) =>
    markdownBlocks(text).map((block, index) => (
      <p key={index} className="markdown-plain">
        {block}
      </p>
    )),
);

export const HelpOverlay = lazyPart<ComponentProps<typeof HelpOverlayType>>(
  'HelpOverlay',
  async () => (await import('./components/help-overlay')).HelpOverlay,
);

export const SignInTerminal = lazyPart<ComponentProps<typeof SignInTerminalType>>(
  'SignInTerminal',
  async () => (await import('./components/sign-in-terminal')).SignInTerminal,
);

/** Runs `then` once the page is idle, at the latest after `timeout` ms idle or not. */
function whenIdle(then: () => void, timeout = 2_000): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(then, { timeout });
  } else {
    setTimeout(then, 200);
  }
}

/**
 * Fetches the files of the cards an agent may ask with (the build names them in the page's
 * `<meta name="airlock-prefetch">`), without running them: a question never waits on the disk or
 * the network, and a page whose agents never ask does not hold the cards' code (about 0.5 MB of
 * heap: RJSF, the validator, re2js).
 */
function prefetchCards(): void {
  const files = document.querySelector<HTMLMetaElement>('meta[name="airlock-prefetch"]');
  for (const file of files?.content.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = file.endsWith('.css') ? 'style' : 'script';
    // As the build's own links and its loader ask for them, so the fetched file is the one used.
    link.crossOrigin = '';
    link.href = file;
    document.head.append(link);
  }
}

/** Loads `parts` one after another, each when the page is idle; a failure waits for first use. */
function preloadWhenIdle(parts: LazyPart<never>[]): void {
  const [next, ...rest] = parts;
  if (next) {
    whenIdle(() => {
      void next
        .preload()
        .catch(() => undefined)
        .finally(() => preloadWhenIdle(rest));
    });
  }
}

/** How long after the app starts the parts it seldom needs soon begin to load. */
const LATER_MS = 2_000;

/**
 * Preloads, once the first screen is up (`shown`), so that loading never competes with it: the
 * session view and Markdown at once if it shows a session (its transcript needs them), else
 * when the page is idle; the files of the cards an agent may ask with (fetched, not run) when
 * the page is idle after a session first shows (see `SessionView`); the agent settings, help
 * and the sign-in terminal when idle a little later.
 */
export function preloadParts(shown: Promise<{ sessionShown: boolean }>): void {
  void shown.then(({ sessionShown }) => {
    const first = [SessionView, Markdown] as LazyPart<never>[];
    if (sessionShown) {
      for (const part of first) {
        void part.preload().catch(() => undefined);
      }
    } else {
      preloadWhenIdle(first);
    }
    setTimeout(
      () => preloadWhenIdle([AgentSettings, HelpOverlay, SignInTerminal] as LazyPart<never>[]),
      LATER_MS,
    );
  });
}
