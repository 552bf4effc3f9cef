import '../main/electron/use-fake-electron.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contextBridge, ipcRenderer, resetFakeElectron } from '../main/electron/fake-electron.js';
import { z } from 'zod';
import type { AirlockApi, EventPayload } from '../../../preload/shared/contract.js';
import { sessionSummary } from '../../helpers/session-summary.js';

// Loading the preload is what exposes the API; capture it before any reset.
await import('../../../preload/index.js');
const exposed = [...contextBridge.exposeInMainWorld.mock.calls];
const airlockApi = exposed[0]?.[1] as AirlockApi;
/** The API as the page sees it, with its types loosened to send what a hostile page could. */
const page = exposed[0]?.[1] as {
  invoke(channel: string, request: unknown): Promise<unknown>;
  on(channel: string, listener: (...args: unknown[]) => void): () => void;
};

beforeEach(() => resetFakeElectron());

const summary: EventPayload<'session:onDidChange'> = sessionSummary();

describe('the exposed API', () => {
  it('is exactly window.airlock with invoke and on', () => {
    expect(exposed).toHaveLength(1);
    expect(exposed[0]?.[0]).toBe('airlock');
    expect(Object.keys(airlockApi).sort()).toEqual(['invoke', 'on']);
    expect(Object.values(airlockApi)).not.toContain(ipcRenderer);
  });

  it('validates without generating code, which the page CSP forbids', () => {
    expect(z.config().jitless).toBe(true);
  });
});

describe('invoke', () => {
  it('sends a contract call and returns the validated response', async () => {
    ipcRenderer.invoke.mockResolvedValue({ ok: true, value: { path: '/home/me' } });
    const api: AirlockApi = airlockApi;
    await expect(api.invoke('app:pickFolder', {})).resolves.toEqual({ path: '/home/me' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('app:pickFolder', {});
  });

  it.each(['ipc:raw', 'ELECTRON_BROWSER_WINDOW_ALERT', '__proto__', 'toString', 42, undefined])(
    'refuses a channel outside the contract (%s) without sending it',
    async (channel) => {
      await expect(page.invoke(channel as string, {})).rejects.toThrow('Unknown call');
      expect(ipcRenderer.invoke).not.toHaveBeenCalled();
    },
  );

  it('rejects a response that does not match the contract', async () => {
    ipcRenderer.invoke.mockResolvedValue({ ok: true, value: { path: 42 } });
    // With zod's first reason, not a stand-in.
    await expect(page.invoke('app:pickFolder', {})).rejects.toThrow(
      /^Invalid app:pickFolder response: Invalid input: expected string, received number$/,
    );
  });

  it('rejects a reply that is not the IPC envelope', async () => {
    ipcRenderer.invoke.mockResolvedValue({ path: '/home/me' });
    await expect(page.invoke('app:pickFolder', {})).rejects.toThrow(
      'Invalid reply to app:pickFolder',
    );
  });

  it('rejects with the user-facing message the main process sent', async () => {
    ipcRenderer.invoke.mockResolvedValue({ ok: false, error: 'That session is closed' });
    const failure = page.invoke('session:cancel', { key: 's1' });
    await expect(failure).rejects.toThrow(Error);
    await expect(failure).rejects.toThrow(/^That session is closed$/);
  });
});

describe('on', () => {
  it('delivers a valid event payload, and only the payload', () => {
    const listener = vi.fn();
    page.on('session:onDidChange', listener);
    ipcRenderer.emit('session:onDidChange', { sender: ipcRenderer }, summary);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([summary]);
  });

  it('drops an invalid payload and reports it', () => {
    const listener = vi.fn();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    page.on('session:onDidChange', listener);
    ipcRenderer.emit('session:onDidChange', {}, { ...summary, status: 'pwned' });
    ipcRenderer.emit('session:onDidChange', {}, '<img src=x onerror=alert(1)>');
    expect(listener).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged.mock.calls[0]).toEqual([
      'airlock: dropped an invalid session:onDidChange event:',
      expect.stringMatching(/^Invalid option/),
    ]);
    logged.mockRestore();
  });

  it('refuses a listener that is not a function, without listening', () => {
    expect(() => page.on('session:onDidChange', 'alert(1)' as never)).toThrow(
      'The listener must be a function',
    );
    expect(ipcRenderer.eventNames()).toEqual([]);
  });

  it.each(['ipc:raw', 'session:prompt', '__proto__', 7])(
    'refuses a channel outside the contract events (%s) without listening',
    (channel) => {
      expect(() => page.on(channel as string, () => undefined)).toThrow('Unknown event');
      expect(ipcRenderer.eventNames()).toEqual([]);
    },
  );

  it('stops delivering after unsubscribe', () => {
    const listener = vi.fn();
    const unsubscribe = page.on('session:onDidChange', listener);
    unsubscribe();
    ipcRenderer.emit('session:onDidChange', {}, summary);
    expect(listener).not.toHaveBeenCalled();
    expect(ipcRenderer.listenerCount('session:onDidChange')).toBe(0);
  });
});
