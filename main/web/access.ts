/**
 * Who may use the web host: one-time links, and the keys of the pages they opened.
 *
 * A link carries its token in the URL's fragment (`#token=…`), which a browser never sends to
 * any server, so no other server on 127.0.0.1 can receive it (a cookie would go to all of them:
 * cookies are not scoped by port). The page presents the token in its socket's first message;
 * the host takes it once and gives the page a key of its own, which the page keeps in its
 * `sessionStorage` (scoped to this origin, port included, and to that browser tab) to open its
 * next sockets: after a dropped link, or a reload. A used link opens nothing again.
 *
 * Calls that reveal secrets or run commands carry a proof besides: an HMAC of the call under
 * the page's key, bound to the socket and the call, so even a socket let in some other way
 * could not make them.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { proofMessage } from '../../preload/shared/web-wire.js';

/** How many links may wait unused at once; asking for more drops the oldest. */
const MAX_LINKS = 20;
/** How many page keys are kept; the oldest page past this must open a new link. */
const MAX_KEYS = 200;
/** How many used links are remembered, to tell "already used" from "not from this host". */
const MAX_USED = 200;

/** Compares two secrets in constant time, whatever their lengths. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A new random secret: 32 bytes, base64url. */
function secret(): string {
  return randomBytes(32).toString('base64url');
}

/** What a page presents in its socket's first message. */
export type Hello = { link?: string; key?: string };

/**
 * Why a page was not let in: its link was used already, neither its link nor its key is this
 * host's (a host started since, or a made-up value), or it presented nothing.
 */
export type Refusal = 'used' | 'unknown' | 'missing';

/** The proof a call needs: the HMAC of its socket's nonce, id and channel under the page key. */
export function callProof(key: string, nonce: string, id: number, channel: string): string {
  return createHmac('sha256', key)
    .update(proofMessage(nonce, id, channel))
    .digest('base64url');
}

/** The links this host gave out and the page keys they were traded for. */
export class PageAccess {
  private links: string[] = [];
  private keys: string[] = [];
  private used: string[] = [];

  /** A new one-time link token. */
  newLink(): string {
    const link = secret();
    this.links.push(link);
    if (this.links.length > MAX_LINKS) {
      this.links.shift();
    }
    return link;
  }

  /**
   * Lets a page in: by its key (a page this host already let in), else by an unused link,
   * which is used up and traded for a new key. Answers the page's key, or why it is refused.
   */
  admit(hello: Hello): { key: string } | { refused: Refusal } {
    // Each list is walked whole, so how long this takes says nothing of where a match was.
    const key = hello.key === undefined ? undefined : find(this.keys, hello.key);
    if (key !== undefined) {
      return { key };
    }
    if (hello.link === undefined) {
      return { refused: hello.key === undefined ? 'missing' : 'unknown' };
    }
    const link = find(this.links, hello.link);
    if (link === undefined) {
      return { refused: find(this.used, hello.link) === undefined ? 'unknown' : 'used' };
    }
    this.links = this.links.filter((other) => other !== link);
    remember(this.used, link, MAX_USED);
    const fresh = secret();
    remember(this.keys, fresh, MAX_KEYS);
    return { key: fresh };
  }
}

/** The entry of `list` equal to `value`, compared in constant time with every entry. */
function find(list: readonly string[], value: string): string | undefined {
  let found: string | undefined;
  for (const entry of list) {
    if (sameSecret(entry, value)) {
      found = entry;
    }
  }
  return found;
}

/** Adds `value` to `list`, dropping the oldest past `max`. */
function remember(list: string[], value: string, max: number): void {
  list.push(value);
  if (list.length > max) {
    list.shift();
  }
}
