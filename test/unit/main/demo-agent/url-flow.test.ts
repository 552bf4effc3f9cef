/**
 * The demo agent's URL-mode flows against the real core: the consent page it serves on
 * 127.0.0.1 completes the elicitation when the user decides there.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

type UrlCard = Extract<TranscriptEvent, { type: 'url_elicitation' }>;

async function demo() {
  const openUrl = vi.fn(async () => undefined);
  const started = await start({
    options: { openUrl },
  });
  const key = await started.ready('Demo Agent');
  return { ...started, key, openUrl };
}

/** What the user does on the consent page: a POST from its button. */
async function decide(card: UrlCard, button: 'authorize' | 'deny'): Promise<string> {
  const page = await fetch(card.url.href);
  expect(await page.text()).toContain('<button>Authorize</button>');
  const response = await fetch(`${card.url.href}/${button}`, { method: 'POST' });
  return response.text();
}

describe('the demo agent\u2019s /url flow', () => {
  it('asks on a tool call, and completes when the user authorizes on its page', async () => {
    const { core, recorder, key, openUrl } = await demo();
    await core.invoke('session:prompt', { key, text: '/url' });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    expect(card.toolCallId).toMatch(/^call_/);
    expect(card.url.scheme).toBe('http');
    expect(card.url.warnings.map((warning) => warning.code)).toContain('http');
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' });
    expect(openUrl).toHaveBeenCalledWith(card.url.href, 'window');
    await recorder.until(() => recorder.text(key).includes('waiting for you'));
    expect(await decide(card, 'authorize')).toContain('You authorized the demo agent');
    expect(await recorder.event(key, 'url_elicitation_done')).toMatchObject({ how: 'completed' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toContain('The Demo Service is connected.');
    expect(recorder.transcript(key)).toContainEqual(
      expect.objectContaining({ type: 'tool_call_update', fields: { status: 'completed' } }),
    );
  });

  it('ends the tool call failed when the user denies on the page', async () => {
    const { core, recorder, key } = await demo();
    await core.invoke('session:prompt', { key, text: '/url' });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'browser' });
    await recorder.until(() => recorder.text(key).includes('waiting for you'));
    await decide(card, 'deny');
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toContain('You denied it on the Demo Service page');
  });

  it('prints the refusals of /url-bad-scheme and /url-duplicate-id', async () => {
    const { core, recorder, key } = await demo();
    await core.invoke('session:prompt', { key, text: '/url-bad-scheme' });
    await recorder.event(key, 'turn_end');
    // Each refusal in words; the JSON-RPC code goes to the demo's log, not the reply.
    expect(recorder.text(key).match(/Airlock refused it: /g)).toHaveLength(3);
    expect(recorder.text(key)).not.toMatch(/-32\d{3}/);
    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: '/url-duplicate-id' });
    const card = (await recorder.event(key, 'url_elicitation', from)) as UrlCard;
    expect(card.url.href).toBe('https://example.com/first');
    // The second, with the same id, is refused while the first is still there.
    await recorder.until(() => recorder.text(key).includes('already outstanding'));
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    await recorder.event(key, 'turn_end', from);
    const told = recorder.text(key);
    expect(told.match(/You answered: decline\./g)).toHaveLength(1);
    expect(told).toMatch(/Airlock refused it: .*"same-id" is already outstanding/);
    expect(told).not.toMatch(/-32\d{3}/);
    expect(
      recorder.transcript(key).filter((event) => event.type === 'url_elicitation'),
    ).toHaveLength(1);
  });
});
