/**
 * The fake `electron` is as strict as Electron where the host depends on it: the other tests
 * here trust it to fail the way Electron would.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  FakeWebContents,
  invokeMain,
  ipcMain,
  ipcRenderer,
  resetFakeElectron,
  UtilityProcess,
} from './fake-electron.js';

beforeEach(() => resetFakeElectron());

class Summary {
  constructor(readonly key: string) {}
}

describe('what crosses between processes is structured-cloned', () => {
  it('webContents.send: a function throws; a class instance arrives as a plain object', () => {
    const contents = new FakeWebContents();
    expect(() => contents.send('channel', { later: () => undefined })).toThrow(
      /could not be cloned/,
    );
    contents.send('channel', new Summary('s1'));
    const [[, received]] = contents.send.mock.calls as [[string, unknown]];
    expect(received).toStrictEqual({ key: 's1' });
  });

  it('ipcRenderer.invoke: its arguments and its answer', async () => {
    ipcRenderer.invoke.mockResolvedValue(new Summary('s1'));
    const answer = await ipcRenderer.invoke('channel', new Summary('s2'));
    expect(answer).toStrictEqual({ key: 's1' });
    expect(ipcRenderer.invoke.mock.calls[0]?.[1]).toStrictEqual({ key: 's2' });
    await expect(ipcRenderer.invoke('channel', () => undefined)).rejects.toThrow(
      /could not be cloned/,
    );
  });

  it('an ipcMain handler: its arguments and answer, and Electron’s message when it throws', async () => {
    const sender = new FakeWebContents();
    const event = { sender, senderFrame: sender.mainFrame };
    ipcMain.handle('echo', (_event, value: unknown) => value);
    ipcMain.handle('isSummary', (_event, value: unknown) => value instanceof Summary);
    ipcMain.handle('fails', () => {
      throw new Error('nope');
    });
    ipcMain.handle('function', () => () => undefined);
    expect(await invokeMain('echo', event, new Summary('s1'))).toStrictEqual({ key: 's1' });
    expect(await invokeMain('isSummary', event, new Summary('s1'))).toBe(false);
    await expect(invokeMain('fails', event)).rejects.toThrow(
      "Error invoking remote method 'fails': Error: nope",
    );
    await expect(invokeMain('function', event)).rejects.toThrow(/could not be cloned/);
  });

  it('a utility process’s postMessage, to its parent port', async () => {
    const child = new UtilityProcess('/agent.js');
    const received = new Promise<unknown>((resolve) =>
      child.parentPort.on('message', ({ data }: { data: unknown }) => resolve(data)),
    );
    expect(() => child.postMessage({ later: () => undefined })).toThrow(/could not be cloned/);
    child.postMessage(Buffer.from('hi'));
    const data = await received;
    expect(data).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(data)).toBe(false);
  });
});

describe('what arrives is a copy, made when it was sent', () => {
  it('webContents.send: changing the value afterwards changes nothing the page got', () => {
    const contents = new FakeWebContents();
    const summary = { key: 's1', status: { kind: 'ready' }, tags: ['a'] };
    contents.send('channel', summary);
    summary.status.kind = 'closed';
    summary.tags.push('b');
    expect(contents.send.mock.calls[0]?.[1]).toStrictEqual({
      key: 's1',
      status: { kind: 'ready' },
      tags: ['a'],
    });
  });

  it('an ipcMain handler sees the call as sent, however the caller changes its value while it runs', async () => {
    const sender = new FakeWebContents();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    ipcMain.handle('later', async (_event, value: unknown) => {
      await gate;
      return value;
    });
    const request = { prompt: 'hello' };
    const answer = invokeMain('later', { sender, senderFrame: sender.mainFrame }, request);
    request.prompt = 'changed';
    release();
    expect(await answer).toStrictEqual({ prompt: 'hello' });
  });

  it('a utility process’s postMessage: the child gets the bytes as they were when posted', async () => {
    const child = new UtilityProcess('/agent.js');
    const received = new Promise<unknown>((resolve) =>
      child.parentPort.on('message', ({ data }: { data: unknown }) => resolve(data)),
    );
    const bytes = new Uint8Array([1, 2, 3]);
    child.postMessage(bytes);
    bytes[0] = 9;
    expect(await received).toStrictEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('a utility process', () => {
  it('has its pid when its spawn event is emitted, not before', () => {
    const child = new UtilityProcess('/agent.js');
    const seen: (number | undefined)[] = [child.pid];
    child.on('spawn', () => seen.push(child.pid));
    child.spawn(42);
    expect(seen).toEqual([undefined, 42]);
  });

  it('has no pid, and cannot be killed, until it spawns; nor after it exits', () => {
    const child = new UtilityProcess('/agent.js', [], { stdio: 'pipe' });
    expect(child.pid).toBeUndefined();
    expect(child.kill()).toBe(false);
    expect(child.killed).toBe(false);
    child.spawn(77);
    expect(child.pid).toBe(77);
    expect(child.kill()).toBe(true);
    expect(child.killed).toBe(true);
    child.exit(0);
    expect(child.pid).toBeUndefined();
    expect(child.stdout).toBeNull();
  });

  it('has output streams only when piped', () => {
    expect(new UtilityProcess('/agent.js').stdout).toBeNull();
    expect(new UtilityProcess('/agent.js', [], { stdio: 'pipe' }).stdout).not.toBeNull();
  });
});
