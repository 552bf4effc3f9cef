/**
 * Links in an agent's reply, in the core: `link:analyse` gives the URL card's analysis (or why
 * the address cannot open), and `link:open` opens only an address that analysis accepts, in the
 * system browser, on a host that opens URLs itself. The answers cross the contract as the UI
 * receives them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls, LINK_TEXT_CEILING } from '../../../../preload/shared/contract.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();
/** The test's core, started where the test first needs it. */
let core: AirlockCore | undefined;
afterEach(() => {
  core = undefined;
});

async function analyse(url: string) {
  core ??= (await start()).core;
  // What the UI gets: checked against the contract as the bridges check it.
  return calls['link:analyse'].response.parse(await core.invoke('link:analyse', { url }));
}

describe('link:analyse', () => {
  it('shows where an https link leads: the serialised URL and its registrable domain', async () => {
    const verdict = await analyse('https://docs.github.com/en/get-started');
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) {
      return;
    }
    expect(verdict.analysis.href).toBe('https://docs.github.com/en/get-started');
    expect(verdict.analysis.registrableDomain).toBe('github.com');
    const { start, end } = verdict.analysis.highlight;
    expect(verdict.analysis.href.slice(start, end)).toBe('github.com');
    expect(verdict.analysis.warnings).toEqual([]);
  });

  it('carries the warnings of URL mode: a borrowed name, a look-alike in punycode', async () => {
    const borrowed = await analyse('https://paypal.com.account-check.example/signin');
    expect(borrowed.ok && borrowed.analysis.warnings.map(({ code }) => code)).toContain(
      'borrowed-name',
    );
    // Markdown hands the renderer a percent-encoded address; it is the same host.
    const lookalike = await analyse('https://%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com/signin');
    expect(lookalike.ok && lookalike.analysis.host).toBe('xn--80ak6aa92e.com');
    expect(lookalike.ok && lookalike.analysis.warnings.length).toBeGreaterThan(0);
  });

  it('refuses what cannot open, saying why', async () => {
    for (const [url, why] of [
      ['javascript:alert(1)', 'The URL scheme "javascript" cannot be opened'],
      ['file:///etc/passwd', 'The URL scheme "file" cannot be opened'],
      ['data:text/html,<b>x</b>', 'The URL scheme "data" cannot be opened'],
      ['http://example.com/', 'Plain http is allowed only to this computer'],
      ['#section', 'not a valid absolute URL'],
      ['', 'not a valid absolute URL'],
      [`https://example.com/${'a'.repeat(LINK_TEXT_CEILING - 20)}`, 'longer than'],
    ] as const) {
      const verdict = await analyse(url);
      expect(verdict.ok, url).toBe(false);
      expect(!verdict.ok && verdict.reason, url).toContain(why);
    }
  });

  it('rejects an address past the ceiling at the contract', async () => {
    core ??= (await start()).core;
    await expect(
      core.invoke('link:analyse', { url: 'h'.repeat(LINK_TEXT_CEILING + 1) }),
    ).rejects.toThrow('Invalid link:analyse request');
  });
});

describe('link:open', () => {
  it('opens the serialised URL in the system browser on a host that opens URLs', async () => {
    const openUrl = vi.fn(async () => undefined);
    core = (await start({ options: { openUrl } })).core;
    await expect(core.invoke('link:open', { url: 'HTTPS://Docs.GitHub.com/a b' })).resolves.toEqual(
      {},
    );
    expect(openUrl).toHaveBeenCalledExactlyOnceWith('https://docs.github.com/a%20b', 'browser');
  });

  it('opens nothing the analysis refuses, whatever the page sends', async () => {
    const openUrl = vi.fn(async () => undefined);
    core = (await start({ options: { openUrl } })).core;
    await expect(core.invoke('link:open', { url: 'javascript:alert(1)' })).rejects.toThrow(
      'The URL scheme "javascript" cannot be opened',
    );
    await expect(core.invoke('link:open', { url: 'http://example.com/' })).rejects.toThrow(
      'Plain http',
    );
    await expect(core.invoke('link:open', { url: 'https://a\u202e.example/' })).rejects.toThrow(
      'control or invisible character',
    );
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('is refused on the web host, where the page opens the tab itself', async () => {
    core = (await start()).core;
    await expect(core.invoke('link:open', { url: 'https://github.com/' })).rejects.toThrow(
      'This host opens links from the page, in a new browser tab',
    );
  });

  it('passes on the host’s refusal', async () => {
    const openUrl = vi.fn(async () => {
      throw new Error('The system browser could not open the URL: no browser');
    });
    core = (await start({ options: { openUrl } })).core;
    await expect(core.invoke('link:open', { url: 'https://github.com/' })).rejects.toThrow(
      'no browser',
    );
  });
});
