import './use-fake-electron.js';
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { app, powerMonitor, resetFakeElectron } from './fake-electron.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { STOP_GRACE_MS } from '../../../../main/core/agent-connection.js';
import { QUIT_DEADLINE_MS, setupQuit } from '../../../../main/electron/app-quit.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { readySession, startCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

function quitEvent(): { preventDefault: Mock<() => void> } {
  return { preventDefault: vi.fn<() => void>() };
}

/** A core whose dispose is recorded and settles when the test says. */
function heldCore(): { dispose: Mock<() => Promise<void>>; finish: () => void } {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { dispose: vi.fn<() => Promise<void>>(() => done), finish: () => finish() };
}

let core: AirlockCore | undefined;
beforeEach(() => resetFakeElectron());
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

describe('quitting the app', () => {
  it('waits for an agent that ignores SIGTERM to end, then quits, leaving no process behind', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-quit-')), 'agent.pid');
    const agent = {
      ...fixtureSpec('basic', 'stubborn'),
      env: { SCRIPTED_PID_FILE: pidFile, SCRIPTED_LINGER: '1', SCRIPTED_IGNORE_TERM: '1' },
    };
    const started = await startCore([agent], { requestMs: 10_000, cancelGraceMs: 500 });
    core = started.core;
    await readySession(core, started.recorder, agent.name, started.dir);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);

    // Real Electron sends before-quit and will-quit again when the quit is asked for anew.
    const again = [quitEvent(), quitEvent()];
    let aliveAtQuit: boolean | undefined;
    app.quit.mockImplementation(() => {
      aliveAtQuit = alive(pid);
      app.emit('before-quit', again[0]);
      app.emit('will-quit', again[1]);
    });
    setupQuit(started.core);

    const first = quitEvent();
    app.emit('before-quit', first);
    expect(first.preventDefault).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    // SIGTERM has been sent and ignored: the app is still waiting.
    expect(alive(pid)).toBe(true);

    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(aliveAtQuit).toBe(false);
    expect(alive(pid)).toBe(false);
    // The renewed quit goes through.
    expect(again[0]?.preventDefault).not.toHaveBeenCalled();
    expect(again[1]?.preventDefault).not.toHaveBeenCalled();
    expect(app.exit).not.toHaveBeenCalled();
  });

  it('stops the agents once, however many quit events arrive while it does', async () => {
    const held = heldCore();
    setupQuit(held);
    const events = [quitEvent(), quitEvent(), quitEvent()];
    app.emit('will-quit', events[0]);
    app.emit('before-quit', events[1]);
    app.emit('will-quit', events[2]);
    for (const event of events) {
      expect(event.preventDefault).toHaveBeenCalledTimes(1);
    }
    expect(held.dispose).toHaveBeenCalledTimes(1);
    held.finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
  });

  it('exits by the deadline when stopping the agents hangs', async () => {
    const held = heldCore();
    setupQuit(held, 50);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    app.emit('before-quit', quitEvent());
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledWith(0));
    expect(error).toHaveBeenCalledWith('airlock: the agents did not stop within 50 ms; exiting');
    error.mockRestore();
    held.finish();
    // Stopping finishing late does not quit a second time.
    await held.dispose.mock.results[0]?.value;
    await Promise.resolve();
    expect(app.quit).not.toHaveBeenCalled();
  });

  it('by default waits longer than stopping an agent can take (SIGTERM, then SIGKILL and its wait)', async () => {
    // core.dispose() waits at most twice the grace period for a process to end.
    expect(QUIT_DEADLINE_MS).toBeGreaterThan(STOP_GRACE_MS * 2);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      setupQuit(heldCore());
      app.emit('before-quit', quitEvent());
      vi.advanceTimersByTime(QUIT_DEADLINE_MS - 1);
      expect(app.exit).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(app.exit).toHaveBeenCalledWith(0);
    } finally {
      error.mockRestore();
      vi.useRealTimers();
    }
  });

  it('quits when stopping the agents fails', async () => {
    setupQuit({ dispose: () => Promise.reject(new Error('broken')) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    app.emit('before-quit', quitEvent());
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(error).toHaveBeenCalledWith('airlock: stopping the agents failed:', expect.any(Error));
    error.mockRestore();
  });

  it('holds a system shutdown until the agents have stopped (Linux, macOS)', async () => {
    const held = heldCore();
    setupQuit(held);
    const shutdown = quitEvent();
    powerMonitor.emit('shutdown', shutdown);
    expect(shutdown.preventDefault).toHaveBeenCalledTimes(1);
    expect(held.dispose).toHaveBeenCalledTimes(1);
    held.finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
  });

  it("starts stopping the agents at a window's session-end (Windows log-off and shutdown)", () => {
    const held = heldCore();
    setupQuit(held);
    const window = new EventEmitter();
    app.emit('browser-window-created', {}, window);
    expect(held.dispose).not.toHaveBeenCalled();
    window.emit('session-end', {});
    expect(held.dispose).toHaveBeenCalledTimes(1);
  });
});
