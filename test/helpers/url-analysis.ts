/**
 * The core's analysis of a URL it opens, for the URL-mode tests: the analysis, checked against
 * the contract on the way (as every one main makes must cross IPC to the renderer).
 */
import { expect } from 'vitest';
import { analyseUrl, type AnalyseUrlOptions } from '../../main/core/elicitation/url-analysis.js';
import { UrlAnalysis } from '../../preload/shared/url-analysis-view.js';

/** What the core makes of `text`, which it must open (a refusal fails the test). */
export function opened(text: string, options: AnalyseUrlOptions = {}): UrlAnalysis {
  const verdict = analyseUrl(text, options);
  if (!verdict.ok) {
    throw new Error(`refused (${verdict.code}): ${verdict.reason}`);
  }
  // Every analysis main makes must cross IPC to the renderer.
  expect(UrlAnalysis.safeParse(verdict.analysis).success).toBe(true);
  return verdict.analysis;
}
