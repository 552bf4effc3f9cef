/**
 * What the user sees of a URL before consenting to open it, as it crosses to the renderer.
 *
 * Main analyses the agent's URL text (main/core/elicitation/url-analysis.ts) and sends this
 * view; the renderer shows it and never parses URLs itself. Every string and list is bounded,
 * and the highlight is checked to lie inside `href`, so the renderer can slice without
 * checking. This file is pure: it imports only zod.
 */
import { z } from 'zod';

// Ceilings for the schema, not the product limits (those live in
// main/core/elicitation/limits.ts, which the preload never imports). A test keeps each at
// least the matching limit, so every analysis main makes crosses IPC.
/** Longest URL text the view may hold (the serialised URL, the agent's text, a host, a path). */
export const URL_VIEW_TEXT_CEILING = 8_192;
/** Longest warning sentence. */
export const URL_VIEW_MESSAGE_CEILING = 1_000;

/**
 * The kinds of finding the consent card shows, most serious first: first those that say the
 * site may not be who it seems (dangers), then those worth a second look, then plain notes.
 */
export const URL_WARNING_CODES = [
  'lookalike',
  'borrowed-name',
  'whole-script-confusable',
  'mixed-script',
  'userinfo',
  'domain-mismatch',
  'punycode',
  'ip-literal',
  'http',
  'port',
  'long-host',
] as const;

/**
 * How serious a finding is, most serious first. `danger`: the site may not be who it seems (the
 * card leads with a plain sentence and opening takes a second step); `caution`: worth a second
 * look; `note`: a fact about the address that needs nothing of the user.
 */
export const URL_FINDING_LEVELS = ['danger', 'caution', 'note'] as const;

/** How serious a finding is; see {@link URL_FINDING_LEVELS}. */
export const UrlFindingLevel = z.enum(URL_FINDING_LEVELS);
/** How serious a finding is; see {@link URL_FINDING_LEVELS}. */
export type UrlFindingLevel = z.infer<typeof UrlFindingLevel>;

/** One kind of warning about a URL. */
export const UrlWarningCode = z.enum(URL_WARNING_CODES);
/** One kind of warning about a URL. */
export type UrlWarningCode = z.infer<typeof UrlWarningCode>;

/** A finding: its kind, how serious it is, and one plain sentence for the user. */
export const UrlWarning = z.object({
  code: UrlWarningCode,
  level: UrlFindingLevel,
  message: z.string().min(1).max(URL_VIEW_MESSAGE_CEILING),
});
/** A finding: its kind, how serious it is, and one plain sentence for the user. */
export type UrlWarning = z.infer<typeof UrlWarning>;

function rank(level: UrlFindingLevel): number {
  return URL_FINDING_LEVELS.indexOf(level);
}

const urlText = z.string().min(1).max(URL_VIEW_TEXT_CEILING);
const offset = z.number().int().min(0).max(URL_VIEW_TEXT_CEILING);

/** The analysis of a URL that may be opened once the user consents. */
export const UrlAnalysis = z
  .object({
    /** The serialised URL (WHATWG `href`): what is shown in full and what is opened. */
    href: urlText,
    /** The agent's text, as sent. */
    original: urlText,
    /** Whether `href` differs from the agent's text (case, encoding, whitespace, `\`, IPs). */
    normalised: z.boolean(),
    scheme: z.enum(['https', 'http']),
    /** The host as opened: ASCII, punycode for international names, `[…]` for IPv6. */
    host: urlText,
    /** The host in Unicode when it is safe to show so (equal to `host` when ASCII), or null. */
    hostUnicode: urlText.nullable(),
    /** The registrable domain (public suffix list, private domains included), or null for an
     * IP address, `localhost` or a bare public suffix. */
    registrableDomain: urlText.nullable(),
    /** The registrable domain in Unicode, when the host is shown in Unicode. */
    registrableDomainUnicode: urlText.nullable(),
    /** The explicit port, or null for the scheme's default. */
    port: z.number().int().min(0).max(65_535).nullable(),
    /** Path, query and fragment, as in `href`. */
    path: z.string().max(URL_VIEW_TEXT_CEILING),
    /** Where in `href` to highlight: the registrable domain, else the whole host. */
    highlight: z.object({ start: offset, end: offset }),
    /** Findings, most serious first, at most one of each kind. */
    warnings: z.array(UrlWarning).max(URL_WARNING_CODES.length),
    /** The most serious finding's level, or null when there is none. */
    level: UrlFindingLevel.nullable(),
    /** With a danger, the one plain sentence the consent leads with ("This is not apple.com."); else null. */
    headline: z.string().min(1).max(URL_VIEW_MESSAGE_CEILING).nullable(),
  })
  .refine(
    ({ href, highlight }) => highlight.start < highlight.end && highlight.end <= href.length,
    { message: 'highlight outside the URL' },
  )
  .refine(({ warnings }) => new Set(warnings.map(({ code }) => code)).size === warnings.length, {
    message: 'duplicate warning',
  })
  .refine(
    ({ warnings, level }) =>
      warnings.every(
        (warning, i) => i === 0 || rank(warnings[i - 1]!.level) <= rank(warning.level),
      ) && level === (warnings[0]?.level ?? null),
    { message: 'findings out of order' },
  )
  // A danger always comes with its sentence, and nothing else does: no reassurance either way.
  .refine(({ level, headline }) => (level === 'danger') === (headline !== null), {
    message: 'a headline goes with a danger, and only with one',
  });
/** The analysis of a URL that may be opened once the user consents. */
export type UrlAnalysis = z.infer<typeof UrlAnalysis>;
