/**
 * What lets this page into the web host: the one-time link token from its address, and the key
 * the host gave it for that link.
 *
 * The token arrives in the URL's fragment (`#token=…`), which the browser sends to no server;
 * it is taken out of the address at once, so it is not left in view, and kept in the tab's
 * storage only until the host has traded it (a reload before then still has it). The key is kept in
 * `sessionStorage`: only this page's origin (port included) and this browser tab can read it,
 * and it lets the page in again after a reload or a dropped link.
 */

/** The storage entry that holds the page's key. */
const KEY_ITEM = 'airlock.pageKey';
/** The storage entry that holds the link until it is traded: a reload before then still has it. */
const LINK_ITEM = 'airlock.link';

/** The page's credentials, as the bridge uses them. */
export type PageCredentials = {
  /** The link token from the address, until the host has traded it for a key. */
  link: string | undefined;
  /** The key the host gave this page, if it has one. */
  key(): string | undefined;
  /** Keeps the key the host gave; the link is spent. */
  keep(key: string): void;
};

/**
 * Takes the link token out of the page's address (keeping the rest of its fragment, such as a
 * session to show) and reads the key kept in `storage`.
 */
export function pageCredentials(
  location: Pick<Location, 'hash' | 'pathname' | 'search'>,
  history: Pick<History, 'replaceState'>,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
): PageCredentials {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromAddress = fragment.get('token') ?? undefined;
  const attempt = (run: () => void) => {
    try {
      run();
    } catch {
      // Storage turned off: what it would keep lives in memory only.
    }
  };
  let stored: string | undefined;
  attempt(() => (stored = storage.getItem(LINK_ITEM) ?? undefined));
  const link = fromAddress ?? stored;
  if (fromAddress !== undefined) {
    attempt(() => storage.setItem(LINK_ITEM, fromAddress));
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(
      null,
      '',
      `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`,
    );
  }
  // Kept in memory too, for a browser whose storage is turned off (then a reload needs a link).
  let kept: string | undefined;
  const credentials: PageCredentials = {
    link,
    key: () => {
      let key: string | undefined;
      attempt(() => (key = storage.getItem(KEY_ITEM) ?? undefined));
      return key ?? kept;
    },
    keep: (key) => {
      kept = key;
      credentials.link = undefined;
      attempt(() => storage.setItem(KEY_ITEM, key));
      attempt(() => storage.removeItem(LINK_ITEM));
    },
  };
  return credentials;
}
