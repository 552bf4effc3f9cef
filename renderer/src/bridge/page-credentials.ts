/**
 * What lets this page into the web host: the one-time link token from its address, and the key
 * the host gave it for that link.
 *
 * The token arrives in the URL's fragment (`#token=…`), which the browser sends to no server;
 * it is taken out of the address at once, so it is not left in view. The key is kept in
 * `sessionStorage`: only this page's origin (port included) and this browser tab can read it,
 * and it lets the page in again after a reload or a dropped link.
 */

/** The storage entry that holds the page's key. */
const KEY_ITEM = 'airlock.pageKey';

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
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): PageCredentials {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const link = fragment.get('token') ?? undefined;
  if (link !== undefined) {
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
      try {
        return storage.getItem(KEY_ITEM) ?? kept;
      } catch {
        return kept;
      }
    },
    keep: (key) => {
      kept = key;
      credentials.link = undefined;
      try {
        storage.setItem(KEY_ITEM, key);
      } catch {
        // As above: in memory only.
      }
    },
  };
  return credentials;
}
