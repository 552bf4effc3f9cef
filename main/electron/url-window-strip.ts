/**
 * What the isolated URL window's address strip shows, worked out from where the page is.
 *
 * Pure: url-window.ts feeds it the page's main-frame address, the URL analysis of it and what
 * happened there, and sends the result to the strip (preload/shared/strip-contract.ts).
 */
import { StripState, type StripWarning } from '../../preload/shared/strip-contract.js';
import type { UrlAnalysis } from '../core/elicitation/url-analysis.js';

/**
 * The part of the URL analysis (main/core/elicitation/url-analysis.ts) the strip shows: the
 * serialised URL, where its registrable domain (else its host) lies in it, and the warnings.
 */
export type StripAnalysis = Pick<UrlAnalysis, 'href' | 'highlight' | 'warnings'>;

/** The strip's warning after the page tried to go somewhere it may not. */
export const NAVIGATION_REFUSED: StripWarning = {
  code: 'navigation-refused',
  message:
    'Airlock stopped this page from opening an address that is not https. If the page seems stuck, use Open in system browser.',
};

/** The strip's warning when the analysis refuses the page's address (one too long, say). */
export function unanalysedWarning(reason: string): StripWarning {
  const message = 'Airlock could not check this address.';
  return { code: 'unanalysed', message: reason === '' ? message : `${message} ${reason}` };
}

/** The strip's height without warnings, and per warning (at most four rows; the rest scroll). */
export const STRIP_HEIGHT = { base: 60, perWarning: 22, maxWarningRows: 4 };

/** What the strip's state is made from. */
export type StripFacts = {
  /** The page's main-frame address. */
  url: string;
  /** Its analysis, or null when the analysis refused it. */
  analysis: StripAnalysis | null;
  /** Why the analysis refused it, when it did. */
  unanalysed: string;
  /** Whether the page tried to go somewhere it may not since its last main-frame navigation. */
  refused: boolean;
};

/** The strip's state; always one the strip's contract accepts, so the strip never drops it. */
export function stripStateOf({ url, analysis, unanalysed, refused }: StripFacts): StripState {
  const https = protocolOf(url) === 'https:';
  const extra = refused ? [NAVIGATION_REFUSED] : [];
  if (analysis) {
    const candidate = StripState.safeParse({
      url: analysis.href,
      registrableDomain: analysis.highlight,
      https,
      warnings: [...analysis.warnings, ...extra].slice(0, 50),
    });
    if (candidate.success) {
      return candidate.data;
    }
  }
  return {
    url,
    registrableDomain: null,
    https,
    warnings: [unanalysedWarning(unanalysed), ...extra],
  };
}

/** The strip's height for a state, within a window `available` pixels high. */
export function stripHeight(state: StripState, available: number): number {
  const rows = Math.min(state.warnings.length, STRIP_HEIGHT.maxWarningRows);
  return Math.min(available, STRIP_HEIGHT.base + rows * STRIP_HEIGHT.perWarning);
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
