import '../main/electron/use-fake-electron.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contextBridge, ipcRenderer } from '../main/electron/fake-electron.js';
import { z } from 'zod';
import {
  STRIP_CHANNELS,
  type AirlockStripApi,
  type StripState,
} from '../../../preload/shared/strip-contract.js';

// Loading the preload is what exposes the API and subscribes to the state channel; the fake is
// never reset here, which would drop that subscription.
await import('../../../preload/strip.js');
const exposed = [...contextBridge.exposeInMainWorld.mock.calls];
const api = exposed[0]?.[1] as AirlockStripApi;

beforeEach(() => {
  ipcRenderer.invoke.mockReset();
});

const state: StripState = {
  url: 'https://accounts.example.com/login',
  registrableDomain: { start: 17, end: 28 },
  https: true,
  warnings: [{ code: 'idn', message: 'The name mixes scripts.' }],
};

/** Delivers a payload on the state channel, as the main process would. */
const deliver = (payload: unknown) =>
  ipcRenderer.emit(STRIP_CHANNELS.onDidChangeState, { sender: ipcRenderer }, payload);

describe('the exposed API', () => {
  it('is exactly window.airlockStrip with onState, close and openInBrowser', () => {
    expect(exposed).toHaveLength(1);
    expect(exposed[0]?.[0]).toBe('airlockStrip');
    expect(Object.keys(api).sort()).toEqual(['close', 'onState', 'openInBrowser']);
    expect(Object.values(api)).not.toContain(ipcRenderer);
  });

  it('validates without generating code, which the page CSP forbids', () => {
    expect(z.config().jitless).toBe(true);
  });
});

describe('onState', () => {
  it('passes valid states, payload only, and replays the latest to a late listener', () => {
    const early = vi.fn();
    const stop = api.onState(early);
    // The first state this file delivers: nothing to replay yet.
    expect(early).not.toHaveBeenCalled();
    deliver(state);
    expect(early.mock.calls).toEqual([[state]]);
    const late = vi.fn();
    api.onState(late);
    expect(late.mock.calls).toEqual([[state]]);
    stop();
    deliver({ ...state, url: 'https://accounts.example.com/next' });
    expect(early).toHaveBeenCalledTimes(1);
    expect(late).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a range outside the address', { ...state, registrableDomain: { start: 17, end: 999 } }],
    ['an empty range', { ...state, registrableDomain: { start: 5, end: 5 } }],
    ['an extra key', { ...state, title: 'Sign in' }],
    ['a URL that is not a string', { ...state, url: 42 }],
    ['a warning without a message', { ...state, warnings: [{ code: 'x' }] }],
    ['nothing', undefined],
  ])('drops %s', (_name, payload) => {
    const listener = vi.fn();
    api.onState(listener);
    listener.mockClear();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    deliver(payload);
    expect(listener).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it.each([
    ['no registrable domain', { ...state, registrableDomain: null }],
    [
      'a domain that ends the address',
      { ...state, url: 'https://example.com', registrableDomain: { start: 8, end: 19 } },
    ],
  ])('passes a state with %s', (_name, payload) => {
    const listener = vi.fn();
    api.onState(listener);
    listener.mockClear();
    deliver(payload);
    expect(listener.mock.calls).toEqual([[payload]]);
  });

  it('says why it dropped a state', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    deliver({ ...state, registrableDomain: { start: 17, end: 999 } });
    expect(logged).toHaveBeenCalledExactlyOnceWith(
      'airlock: dropped an invalid strip state:',
      'The registrable domain lies outside the address',
    );
    logged.mockRestore();
  });

  it('refuses a listener that is not a function', () => {
    expect(() => api.onState('alert(1)' as never)).toThrow('The listener must be a function');
  });
});

describe('close and openInBrowser', () => {
  it.each([
    ['close', STRIP_CHANNELS.close],
    ['openInBrowser', STRIP_CHANNELS.openInBrowser],
  ] as const)('%s sends its call, with nothing from the page', async (name, channel) => {
    ipcRenderer.invoke.mockResolvedValue({ ok: true, value: null });
    await expect(api[name]()).resolves.toBeUndefined();
    expect(ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(channel);
  });

  it('rejects with the message the main process sent', async () => {
    ipcRenderer.invoke.mockResolvedValue({ ok: false, error: 'Forbidden' });
    await expect(api.openInBrowser()).rejects.toThrow(/^Forbidden$/);
  });

  it('rejects a reply that is not the IPC envelope', async () => {
    ipcRenderer.invoke.mockResolvedValue('ok');
    await expect(api.close()).rejects.toThrow(`Invalid reply to ${STRIP_CHANNELS.close}`);
  });
});
