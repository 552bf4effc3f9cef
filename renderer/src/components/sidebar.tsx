/**
 * Whether the sessions sidebar shows, and the button that shows or hides it.
 *
 * On a wide window the sidebar sits beside the session and the user's choice is remembered
 * (localStorage). On a narrow one (a phone, a split screen) it lies over the session when shown,
 * and hides again once a session is picked, Esc is pressed, or the page behind it is clicked.
 */
import './sidebar.css';
import { useCallback, useState, useSyncExternalStore, type Ref } from 'react';

/** Windows this narrow or narrower get the sidebar as an overlay. */
export const NARROW_QUERY = '(max-width: 720px)';
/** Where the wide layout's choice is kept. */
export const SIDEBAR_STORAGE_KEY = 'airlock.sidebar';

/**
 * The query, made once: every `matchMedia` call builds a new one and evaluates it against the
 * page's current style, and the app renders once a frame while a reply streams in.
 */
let narrowQuery: MediaQueryList | undefined;

function narrowMedia(): MediaQueryList {
  narrowQuery ??= window.matchMedia(NARROW_QUERY);
  return narrowQuery;
}

function subscribeNarrow(listener: () => void): () => void {
  const query = narrowMedia();
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function isNarrow(): boolean {
  return narrowMedia().matches;
}

function storedExpanded(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_STORAGE_KEY) !== 'collapsed';
  } catch {
    // Storage may be off (a locked-down browser): the sidebar then starts shown.
    return true;
  }
}

function storeExpanded(expanded: boolean): void {
  try {
    window.localStorage.setItem(SIDEBAR_STORAGE_KEY, expanded ? 'expanded' : 'collapsed');
  } catch {
    // Not remembered, and nothing else is lost.
  }
}

/** The sidebar's state. */
export type Sidebar = {
  /** Whether the window is narrow: the sidebar is then an overlay. */
  narrow: boolean;
  /** Whether the sidebar shows. */
  expanded: boolean;
  setExpanded(expanded: boolean): void;
  /** Hides the overlay after the user picked or started a session (a wide sidebar stays). */
  picked(): void;
};

/**
 * The sidebar's state. A narrow window starts with it hidden: sessions start from the welcome
 * in the session's place, or from the New session shortcut.
 */
export function useSidebar(): Sidebar {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow);
  const [wide, setWide] = useState(storedExpanded);
  const [overlay, setOverlay] = useState(false);
  const expanded = narrow ? overlay : wide;
  const setExpanded = useCallback(
    (value: boolean) => {
      if (narrow) {
        setOverlay(value);
      } else {
        setWide(value);
        storeExpanded(value);
      }
    },
    [narrow],
  );
  const picked = useCallback(() => {
    if (narrow) {
      setOverlay(false);
    }
  }, [narrow]);
  return { narrow, expanded, setExpanded, picked };
}

/** The button that shows and hides the sidebar; it stays in the same corner either way. */
export function SidebarToggle({
  sidebar,
  controls,
  buttonRef,
}: {
  sidebar: Sidebar;
  /** The sidebar's element id. */
  controls: string;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const { expanded, setExpanded } = sidebar;
  return (
    <button
      ref={buttonRef}
      type="button"
      className="sidebar-toggle"
      aria-expanded={expanded}
      aria-controls={controls}
      title={expanded ? 'Hide the sessions sidebar' : 'Show the sessions sidebar'}
      onClick={() => setExpanded(!expanded)}
    >
      <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
        <rect x="2.5" y="3.5" width="15" height="13" rx="2" fill="none" stroke="currentColor" />
        <path d="M8 3.5v13" stroke="currentColor" />
        {expanded ? <path d="M4.5 7h2M4.5 10h2M4.5 13h2" stroke="currentColor" /> : null}
      </svg>
      <span className="visually-hidden">Sessions sidebar</span>
    </button>
  );
}
