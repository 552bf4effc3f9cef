/**
 * A stand-in for the `electron` module in the Electron-host tests.
 *
 * The real package downloads its binary on first `require`, which cannot happen here, so
 * each test file mocks `electron` with this module:
 * `vi.mock('electron', () => import('./fake-electron.js'))`. It records what the host
 * configures (window options, handlers, listeners) so the tests can assert on it and drive
 * it (emit navigations, call IPC handlers). It runs nothing.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

type Handler = (...args: never[]) => unknown;

/** A session that keeps the handlers set on it. */
export class FakeSession extends EventEmitter {
  permissionRequestHandler: Handler | undefined;
  permissionCheckHandler: Handler | undefined;
  devicePermissionHandler: Handler | undefined;
  setPermissionRequestHandler = vi.fn((handler: Handler) => {
    this.permissionRequestHandler = handler;
  });
  setPermissionCheckHandler = vi.fn((handler: Handler) => {
    this.permissionCheckHandler = handler;
  });
  setDevicePermissionHandler = vi.fn((handler: Handler) => {
    this.devicePermissionHandler = handler;
  });
  clearStorageData = vi.fn(async () => undefined);
  clearCache = vi.fn(async () => undefined);
  clearAuthCache = vi.fn(async () => undefined);

  constructor(readonly partition = '') {
    super();
  }
}

let nextContentsId = 1;
let nextProcessId = 100;

/** A frame, identified as Electron identifies one: process id and routing id. */
export type FakeFrame = { processId: number; routingId: number; url: string };

/** A web contents that keeps its handlers and the messages sent to it. */
export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame: FakeFrame = { processId: nextProcessId++, routingId: 1, url: '' };
  windowOpenHandler: Handler | undefined;
  destroyed = false;
  send = vi.fn();
  setWindowOpenHandler = vi.fn((handler: Handler) => {
    this.windowOpenHandler = handler;
  });
  loadURL = vi.fn(async (url: string) => {
    this.mainFrame.url = url;
  });
  /** Closes at once, as Electron does without `waitForBeforeUnload`. */
  close = vi.fn(() => {
    this.destroyed = true;
  });

  constructor(readonly session: FakeSession = defaultSession) {
    super();
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Emits a navigation-like event and tells whether a listener refused it. */
  attempt(event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    this.emit(event, {
      url,
      preventDefault: () => {
        prevented = true;
      },
    });
    return prevented;
  }
}

/** The session every fake contents shares unless told otherwise. */
export let defaultSession = new FakeSession();

/** A browser window that records its options and what it loaded. */
export class BrowserWindow extends EventEmitter {
  static created: BrowserWindow[] = [];
  static focused: BrowserWindow | null = null;
  static getFocusedWindow = vi.fn(() => BrowserWindow.focused);
  readonly webContents = new FakeWebContents();
  destroyed = false;
  loadURL = vi.fn(async (url: string) => {
    this.webContents.mainFrame.url = url;
  });
  show = vi.fn();

  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.created.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** A view's web contents with the options it was made with (`WebContentsView`). */
export class WebContentsView {
  static created: WebContentsView[] = [];
  readonly webContents: FakeWebContents;
  setBounds = vi.fn();

  constructor(readonly options: { webPreferences?: Record<string, unknown> } = {}) {
    const session = options.webPreferences?.session;
    this.webContents = new FakeWebContents(
      session instanceof FakeSession ? session : defaultSession,
    );
    WebContentsView.created.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
}

/** A window without contents of its own (`BaseWindow`): views go in its `contentView`. */
export class BaseWindow extends EventEmitter {
  static created: BaseWindow[] = [];
  readonly contentView = {
    children: [] as WebContentsView[],
    addChildView: vi.fn((view: WebContentsView) => {
      this.contentView.children.push(view);
    }),
  };
  destroyed = false;
  /** Emits 'close' (which a listener may prevent), then 'closed'. */
  close = vi.fn(() => {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented && !this.destroyed) {
      this.destroyed = true;
      this.emit('closed');
    }
  });

  constructor(readonly options: Record<string, unknown>) {
    super();
    BaseWindow.created.push(this);
  }

  getContentBounds(): { x: number; y: number; width: number; height: number } {
    const size = (key: string) => (typeof this.options[key] === 'number' ? this.options[key] : 0);
    return { x: 0, y: 0, width: size('width'), height: size('height') };
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** The sessions made by `session.fromPartition`, by partition: the same name, the same session. */
export const partitions = new Map<string, FakeSession>();

/** `session`: the default one, and one per partition name. */
export const session = {
  get defaultSession(): FakeSession {
    return defaultSession;
  },
  fromPartition: vi.fn((partition: string) => {
    const existing = partitions.get(partition) ?? new FakeSession(partition);
    partitions.set(partition, existing);
    return existing;
  }),
};

/** Records what is handed to the system browser. */
export const shell = { openExternal: vi.fn(async (_url: string) => undefined) };

/** The app: an event emitter whose readiness and command line the test controls. */
export const app = Object.assign(new EventEmitter(), {
  enableSandbox: vi.fn(),
  quit: vi.fn(),
  exit: vi.fn(),
  whenReady: vi.fn(() => ready.promise),
  commandLine: { hasSwitch: vi.fn((_name: string) => false) },
});

let ready = deferred();

/** Resolves `app.whenReady()`. */
export function makeReady(): void {
  ready.resolve();
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Records the scheme privileges and protocol handlers. */
export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn(),
};

/** IPC handlers by channel, as `ipcMain.handle` registered them. */
export const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();

/** Records `handle` and `removeHandler`. */
export const ipcMain = {
  handle: vi.fn((channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
    if (ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    ipcHandlers.set(channel, handler);
  }),
  removeHandler: vi.fn((channel: string) => ipcHandlers.delete(channel)),
};

/** The renderer side of IPC: an emitter with a scripted `invoke`. */
export const ipcRenderer = Object.assign(new EventEmitter(), { invoke: vi.fn() });

/** Records what the preload exposes. */
export const contextBridge = { exposeInMainWorld: vi.fn() };

/** A scripted folder picker. */
export const dialog = { showOpenDialog: vi.fn() };

/** A scripted `utilityProcess.fork`. */
export const utilityProcess = { fork: vi.fn() };

/**
 * A scripted `safeStorage`: "encrypts" by reversing and tagging, so a test can tell ciphertext
 * from the value. Tests choose whether encryption is available and which Linux backend runs.
 */
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => true),
  getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
  encryptString: vi.fn((plain: string) =>
    Buffer.from(`enc:${[...plain].reverse().join('')}`, 'utf8'),
  ),
  decryptString: vi.fn((encrypted: Buffer) => {
    const text = encrypted.toString('utf8');
    if (!text.startsWith('enc:')) {
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    }
    return [...text.slice(4)].reverse().join('');
  }),
};

/** Forgets everything recorded, for a fresh test. */
export function resetFakeElectron(): void {
  vi.clearAllMocks();
  BrowserWindow.created = [];
  BrowserWindow.focused = null;
  BaseWindow.created = [];
  WebContentsView.created = [];
  partitions.clear();
  app.commandLine.hasSwitch.mockImplementation(() => false);
  shell.openExternal.mockImplementation(async () => undefined);
  ipcHandlers.clear();
  ipcRenderer.removeAllListeners();
  app.removeAllListeners();
  defaultSession = new FakeSession();
  ready = deferred();
}
