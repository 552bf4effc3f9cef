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

/** The kinds of warning the consent card shows, most serious first. */
export const URL_WARNING_CODES = [
  'lookalike',
  'borrowed-name',
  'whole-script-confusable',
  'mixed-script',
  'punycode',
  'userinfo',
  'ip-literal',
  'domain-mismatch',
  'http',
  'port',
  'long-host',
] as const;

/** One kind of warning about a URL. */
export const UrlWarningCode = z.enum(URL_WARNING_CODES);
/** One kind of warning about a URL. */
export type UrlWarningCode = z.infer<typeof UrlWarningCode>;

/** A warning: its kind, and one plain sentence for the user. */
export const UrlWarning = z.object({
  code: UrlWarningCode,
  message: z.string().min(1).max(URL_VIEW_MESSAGE_CEILING),
});
/** A warning: its kind, and one plain sentence for the user. */
export type UrlWarning = z.infer<typeof UrlWarning>;

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
    /** Warnings, most serious first, at most one of each kind. */
    warnings: z.array(UrlWarning).max(URL_WARNING_CODES.length),
  })
  .refine(
    ({ href, highlight }) => highlight.start < highlight.end && highlight.end <= href.length,
    { message: 'highlight outside the URL' },
  )
  .refine(({ warnings }) => new Set(warnings.map(({ code }) => code)).size === warnings.length, {
    message: 'duplicate warning',
  });
/** The analysis of a URL that may be opened once the user consents. */
export type UrlAnalysis = z.infer<typeof UrlAnalysis>;
