/**
 * Spots form fields that look like they ask for a secret.
 *
 * Form mode must not be used for passwords, keys, tokens or payment credentials (see
 * spec/acp-elicitation.md, "Form mode"); an agent that asks anyway gets a warning on the card.
 * This is a heuristic over the words the agent chose, so it warns and never blocks.
 */
import type { FormField } from '../../../preload/shared/form-model';

/** What the card says when a field looks like it asks for a secret. */
export const SECRET_WARNING =
  'Form mode must not be used for secrets; do not enter passwords or keys here.';

// Word-bounded so ordinary fields ("Passport number", "Max tokens", "Pin the version") do not match.
const SECRET_WORDS = new RegExp(
  [
    'pass ?(word|phrase|code)s?',
    'passwd',
    'pwd',
    'pin ?(code|number)',
    'api ?keys?',
    '(access|secret|private|signing|ssh|gpg|pgp|encryption) ?keys?',
    'secrets?',
    '(access|refresh|auth|bearer|session|id|api|personal access) ?tokens?',
    'token',
    'credentials?',
    'recovery (code|phrase|key)s?',
    '(seed|mnemonic) ?(phrase|words)?',
    'backup codes?',
    '(one ?time|otp|2fa|mfa|totp) ?(code|password)?',
    '(credit |debit )?card ?(number|no)',
    'cvv2?',
    'cvc2?',
    'security code',
  ]
    .map((words) => `(^|[^a-z0-9])${words}([^a-z0-9]|$)`)
    .join('|'),
  'i',
);

/** The field's words, with camelCase and snake_case split so `apiKey` reads as "api key". */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase();
}

/** Whether the field's name, title or description reads like a request for a secret. */
export function looksLikeSecret(field: FormField): boolean {
  return [field.name, field.title, field.description].some(
    (text) => text !== undefined && SECRET_WORDS.test(words(text)),
  );
}
