/**
 * The address strip of an isolated URL window: where the page is, and two buttons.
 *
 * Shows what the main process sends through `window.airlockStrip` (preload/strip.ts): the full
 * address with its registrable domain highlighted, whether it is https, and the warnings. Every
 * string goes in as text, never as HTML. The strip never sees the page itself.
 */
import type { AirlockStripApi, StripState } from '../../preload/shared/strip-contract.js';

declare global {
  interface Window {
    airlockStrip?: AirlockStripApi;
  }
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) {
    throw new Error(`The strip page has no #${id}`);
  }
  return found as T;
}

const view = {
  security: element('security'),
  before: element('before'),
  domain: element('domain'),
  after: element('after'),
  warnings: element<HTMLUListElement>('warnings'),
  openBrowser: element<HTMLButtonElement>('open-browser'),
  close: element<HTMLButtonElement>('close'),
};

let failure: string | null = null;
let shown: StripState | null = null;

/** Splits the address around its registrable domain; all of it is shown, none elided. */
function addressParts(state: StripState): [string, string, string] {
  const range = state.registrableDomain;
  if (!range) {
    return [state.url, '', ''];
  }
  return [
    state.url.slice(0, range.start),
    state.url.slice(range.start, range.end),
    state.url.slice(range.end),
  ];
}

function render(): void {
  if (shown) {
    const [before, domain, after] = addressParts(shown);
    view.before.textContent = before;
    view.domain.textContent = domain;
    view.domain.hidden = domain === '';
    view.after.textContent = after;
    view.security.textContent = shown.https ? 'https' : 'Not https';
    view.security.className = `security ${shown.https ? 'https' : 'insecure'}`;
    // https says nothing about who runs a site: the strip vouches for none.
    view.security.title = shown.https
      ? 'The address uses https. That does not say who runs the site.'
      : 'The address uses plain http, which Airlock opens only on this computer.';
  }
  const items: HTMLLIElement[] = [];
  if (failure) {
    items.push(item(failure, 'error'));
  }
  for (const warning of shown?.warnings ?? []) {
    const li = item(warning.message, `warning ${warning.level ?? 'caution'}`);
    li.dataset.code = warning.code;
    items.push(li);
  }
  view.warnings.replaceChildren(...items);
}

function item(text: string, kind: string): HTMLLIElement {
  const li = document.createElement('li');
  li.className = kind;
  li.textContent = text;
  return li;
}

function report(error: unknown): void {
  failure = error instanceof Error ? error.message : 'That did not work.';
  render();
}

const api = window.airlockStrip;
if (api) {
  api.onState((state) => {
    shown = state;
    failure = null;
    render();
  });
  view.close.addEventListener('click', () => api.close().catch(report));
  view.openBrowser.addEventListener('click', () => api.openInBrowser().catch(report));
} else {
  view.before.textContent = 'This page works only inside Airlock.';
  view.openBrowser.disabled = true;
  view.close.disabled = true;
}
