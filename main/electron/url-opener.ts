/**
 * The Electron host's side of "open this URL": in the isolated window, or in the system browser.
 *
 * The core asks only after the user consented (spec/acp-elicitation.md: "Clients MUST NOT
 * prefetch the URL or open it without explicit user consent"); this analyses the address once
 * more all the same, so nothing but https (or http to this computer) ever leaves the app.
 */
import { shell } from 'electron';
import { analyseUrl } from '../core/elicitation/url-analysis.js';
import { UserFacingError } from '../core/errors.js';
import { isAllowedUrl, NOT_ALLOWED_MESSAGE } from './url-window-policy.js';
import { openUrlWindow } from './url-window.js';

/** Where a consented URL opens. */
export type UrlTarget = 'window' | 'browser';

/**
 * Opens a URL the user consented to: `'window'` in the isolated URL window (url-window.ts, whose
 * `setupUrlWindows` must have run), `'browser'` in the system browser.
 *
 * Either way, only an address the URL analysis accepts and that is https (or http to this
 * computer) opens; anything else rejects and opens nothing. So does `'window'` when Chromium's
 * sandbox is off (the message says to use the browser instead). Each refusal is a
 * {@link UserFacingError}: the card shows its words, not "Internal error".
 */
export async function openUrl(url: string, where: UrlTarget): Promise<void> {
  const verdict = analyseUrl(url);
  if (!verdict.ok || !isAllowedUrl(verdict.analysis.href)) {
    throw new UserFacingError(NOT_ALLOWED_MESSAGE);
  }
  switch (where) {
    case 'window':
      openUrlWindow({ url: verdict.analysis.href, analysis: verdict.analysis });
      return;
    case 'browser':
      // The serialised URL the consent card showed: the OS gets no raw text to reinterpret.
      await shell.openExternal(verdict.analysis.href).catch((error: unknown) => {
        throw new UserFacingError(
          `The system browser could not open the URL: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      return;
    default:
      throw new Error('Unknown place to open a URL');
  }
}
