/**
 * The Content Security Policy each page carries in its own `<meta>`, which holds wherever the
 * page is served (the desktop app's scheme sends a header too, tested in app-protocol.test.ts,
 * and so does the web host, in web-host-security.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The policy of `page`'s CSP meta tag, directive by directive. */
function metaPolicy(page: string): Map<string, string[]> {
  const html = readFileSync(new URL(`../../../renderer/${page}`, import.meta.url), 'utf8');
  const tags = [...html.matchAll(/http-equiv="Content-Security-Policy"\s+content="([^"]*)"/g)];
  expect(tags).toHaveLength(1);
  return new Map(
    tags[0]![1]!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe.each(['index.html', 'strip.html'])('the CSP of %s', (page) => {
  it('runs only its own scripts: no eval, no inline script, nothing from elsewhere', () => {
    const policy = metaPolicy(page);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    for (const values of policy.values()) {
      expect(values.filter((value) => value.startsWith("'unsafe-"))).toEqual([]);
    }
  });

  it('allows no plugins, no <base>, no form posts, and styles only its own', () => {
    const policy = metaPolicy(page);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
  });
});
