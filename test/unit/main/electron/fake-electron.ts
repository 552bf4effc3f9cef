/**
 * A stand-in for the `electron` module in the Electron-host tests.
 *
 * The real package downloads its binary on first `require`, which cannot happen here, so
 * each test file puts this module in its place by importing `use-fake-electron.ts` first. It
 * records what the host configures (window options, handlers, listeners) so the tests can
 * assert on it and drive it (emit navigations, call IPC handlers). It runs nothing.
 *
 * It is as strict as Electron where the host depends on it:
 * - Every member it offers has the signature Electron declares (`import type` only: a runtime
 *   import of `electron` would try to download the binary).
 * - What crosses between processes is structured-cloned, as Electron does it:
 *   `webContents.send`, `ipcRenderer.invoke` and its answer, a call to an `ipcMain.handle`
 *   handler ({@link invokeMain}) and its answer, and a utility process's `postMessage` to its
 *   `process.parentPort`. A function or a symbol throws; a class instance arrives as a plain
 *   object.
 * - A utility process has no pid until it has spawned, and none after it has exited; `kill()`
 *   does nothing without one.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { vi, type Mock } from 'vitest';
import type {
  App,
  BaseWindow as ElectronBaseWindow,
  BaseWindowConstructorOptions,
  BrowserWindow as ElectronBrowserWindow,
  BrowserWindowConstructorOptions,
  CommandLine,
  ContextBridge,
  Display,
  Dialog,
  ForkOptions,
  IpcMain,
  IpcMainInvokeEvent,
  IpcRenderer,
  MenuItemConstructorOptions,
  Notification as ElectronNotification,
  NotificationConstructorOptions,
  Protocol,
  session as electronSession,
  Rectangle,
  SafeStorage,
  Screen,
  Session,
  Shell,
  UtilityProcess as ElectronUtilityProcess,
  utilityProcess as electronUtilityProcess,
  WebContents,
  WebContentsView as ElectronWebContentsView,
  WebContentsViewConstructorOptions,
  WebFrameMain,
} from 'electron';

type Procedure = (...args: never[]) => unknown;

/**
 * `spy` as a call that crosses to another process: its arguments are structured-cloned before
 * the spy sees them (so it records what the other side receives). What cannot be cloned throws,
 * as in Electron. With `answer`, the call is asynchronous (a failed clone rejects) and what its
 * promise resolves to is cloned too.
 */
function acrossProcesses<T extends Mock<Procedure>>(spy: T, { answer = false } = {}): T {
  const cross = (target: T, thisArg: unknown, args: unknown[]): unknown =>
    Reflect.apply(
      target,
      thisArg,
      args.map((arg) => structuredClone(arg)),
    );
  return new Proxy(spy, {
    apply: (target, thisArg, args: unknown[]) =>
      answer
        ? (async () => structuredClone(await cross(target, thisArg, args)))()
        : cross(target, thisArg, args),
  });
}

/** A session that keeps the handlers set on it. */
export class FakeSession
  extends EventEmitter
  implements
    Pick<
      Session,
      | 'setPermissionRequestHandler'
      | 'setPermissionCheckHandler'
      | 'setDevicePermissionHandler'
      | 'clearStorageData'
      | 'clearCache'
      | 'clearAuthCache'
    >
{
  permissionRequestHandler: Parameters<Session['setPermissionRequestHandler']>[0] | undefined;
  permissionCheckHandler: Parameters<Session['setPermissionCheckHandler']>[0] | undefined;
  devicePermissionHandler: Parameters<Session['setDevicePermissionHandler']>[0] | undefined;
  setPermissionRequestHandler = vi.fn<Session['setPermissionRequestHandler']>((handler) => {
    this.permissionRequestHandler = handler;
  });
  setPermissionCheckHandler = vi.fn<Session['setPermissionCheckHandler']>((handler) => {
    this.permissionCheckHandler = handler;
  });
  setDevicePermissionHandler = vi.fn<Session['setDevicePermissionHandler']>((handler) => {
    this.devicePermissionHandler = handler;
  });
  clearStorageData = vi.fn<Session['clearStorageData']>(async () => undefined);
  clearCache = vi.fn<Session['clearCache']>(async () => undefined);
  clearAuthCache = vi.fn<Session['clearAuthCache']>(async () => undefined);

  constructor(readonly partition = '') {
    super();
  }
}

let nextContentsId = 1;
let nextProcessId = 100;

/** A frame, identified as Electron identifies one: process id and routing id. */
export type FakeFrame = {
  -readonly [K in 'processId' | 'routingId' | 'url']: WebFrameMain[K];
};

/** A web contents that keeps its handlers and the messages sent to it. */
export class FakeWebContents
  extends EventEmitter
  implements
    Pick<
      WebContents,
      'id' | 'send' | 'setWindowOpenHandler' | 'loadURL' | 'close' | 'getURL' | 'isDestroyed'
    >
{
  readonly id = nextContentsId++;
  readonly mainFrame: FakeFrame = { processId: nextProcessId++, routingId: 1, url: '' };
  windowOpenHandler: Parameters<WebContents['setWindowOpenHandler']>[0] | undefined;
  destroyed = false;
  /** Records what the page receives: clones of the arguments. */
  send = acrossProcesses(vi.fn<WebContents['send']>());
  setWindowOpenHandler = vi.fn<WebContents['setWindowOpenHandler']>((handler) => {
    this.windowOpenHandler = handler;
  });
  loadURL = vi.fn<WebContents['loadURL']>(async (url) => {
    this.mainFrame.url = url;
  });
  /** Closes at once, as Electron does without `waitForBeforeUnload`. */
  close = vi.fn<WebContents['close']>(() => {
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

  /**
   * Emits a navigation-like event (of the main frame, unless `isMainFrame` is false) and tells
   * whether a listener refused it.
   */
  attempt(
    event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect',
    url: string,
    isMainFrame = true,
  ): boolean {
    let prevented = false;
    this.emit(event, {
      url,
      isMainFrame,
      preventDefault: () => {
        prevented = true;
      },
    });
    return prevented;
  }

  /** Asks the window-open handler about `window.open(url)`, as Electron would. */
  requestWindow(url: string): ReturnType<NonNullable<FakeWebContents['windowOpenHandler']>> {
    if (!this.windowOpenHandler) {
      throw new Error('no window-open handler is set');
    }
    return this.windowOpenHandler({
      url,
      frameName: '',
      features: '',
      disposition: 'new-window',
      referrer: { url: '', policy: 'strict-origin-when-cross-origin' },
    });
  }
}

/** The session every fake contents shares unless told otherwise. */
export let defaultSession = new FakeSession();

/** The geometry and focus members of a window the fake keeps (see the section in the class). */
type WindowGeometryMember =
  | 'getBounds'
  | 'getNormalBounds'
  | 'isMaximized'
  | 'isMinimized'
  | 'isFullScreen'
  | 'maximize'
  | 'minimize'
  | 'restore'
  | 'focus';

/** A browser window that records its options and what it loaded. */
export class BrowserWindow
  extends EventEmitter
  implements
    Pick<ElectronBrowserWindow, 'loadURL' | 'show' | 'isDestroyed'>,
    Pick<ElectronBrowserWindow, WindowGeometryMember>
{
  static created: BrowserWindow[] = [];
  static focused: BrowserWindow | null = null;
  static getFocusedWindow = vi.fn(() => BrowserWindow.focused);
  readonly webContents = new FakeWebContents();
  destroyed = false;
  loadURL = vi.fn<ElectronBrowserWindow['loadURL']>(async (url) => {
    this.webContents.mainFrame.url = url;
  });
  show = vi.fn<ElectronBrowserWindow['show']>();

  // --- Geometry and focus (single instance, window state: app-instance.ts, app-window.ts) ---
  // The window's normal bounds and its state, as a window manager would keep them: maximized
  // or minimized leaves the normal bounds alone; each change emits Electron's event.
  bounds: Rectangle;
  maximized = false;
  minimized = false;
  fullScreen = false;
  /** Maximized or full screen, the window covers the primary display's work area or bounds. */
  getBounds = vi.fn<ElectronBrowserWindow['getBounds']>(() => {
    const display = screen.getPrimaryDisplay();
    return this.fullScreen
      ? { ...display.bounds }
      : this.maximized
        ? { ...display.workArea }
        : { ...this.bounds };
  });
  getNormalBounds = vi.fn<ElectronBrowserWindow['getNormalBounds']>(() => ({ ...this.bounds }));
  isMaximized = vi.fn<ElectronBrowserWindow['isMaximized']>(() => this.maximized);
  isMinimized = vi.fn<ElectronBrowserWindow['isMinimized']>(() => this.minimized);
  isFullScreen = vi.fn<ElectronBrowserWindow['isFullScreen']>(() => this.fullScreen);
  maximize = vi.fn<ElectronBrowserWindow['maximize']>(() => {
    this.maximized = true;
    this.emit('maximize');
  });
  minimize = vi.fn<ElectronBrowserWindow['minimize']>(() => {
    this.minimized = true;
    this.emit('minimize');
  });
  /** Out of minimized (or else maximized) state, as Electron's `restore`. */
  restore = vi.fn<ElectronBrowserWindow['restore']>(() => {
    if (this.minimized) {
      this.minimized = false;
    } else {
      this.maximized = false;
    }
    this.emit('restore');
  });
  focus = vi.fn<ElectronBrowserWindow['focus']>(() => {
    BrowserWindow.focused = this;
    this.emit('focus');
  });

  /** The user moves or resizes the window to `bounds`: 'move' and 'resize' as they apply. */
  userSetsBounds(bounds: Rectangle): void {
    const moved = bounds.x !== this.bounds.x || bounds.y !== this.bounds.y;
    const resized = bounds.width !== this.bounds.width || bounds.height !== this.bounds.height;
    this.bounds = { ...bounds };
    if (moved) {
      this.emit('move');
    }
    if (resized) {
      this.emit('resize');
    }
  }

  /** The user closes the window: 'close' (which a listener may prevent), then 'closed'. */
  userCloses(): void {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented) {
      this.destroyed = true;
      this.emit('closed');
    }
  }
  // --- end of geometry and focus ---

  constructor(readonly options: BrowserWindowConstructorOptions = {}) {
    super();
    // Electron centres a window given no position; where does not matter to these tests.
    this.bounds = {
      x: options.x ?? 0,
      y: options.y ?? 0,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
    BrowserWindow.created.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** A view's web contents with the options it was made with (`WebContentsView`). */
export class WebContentsView implements Pick<ElectronWebContentsView, 'setBounds'> {
  static created: WebContentsView[] = [];
  readonly webContents: FakeWebContents;
  setBounds = vi.fn<ElectronWebContentsView['setBounds']>();

  constructor(readonly options: WebContentsViewConstructorOptions = {}) {
    const session = options.webPreferences?.session;
    this.webContents = new FakeWebContents(
      session instanceof FakeSession ? session : defaultSession,
    );
    WebContentsView.created.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
}

/** A window without contents of its own (`BaseWindow`): views go in its `contentView`. */
export class BaseWindow
  extends EventEmitter
  implements Pick<ElectronBaseWindow, 'close' | 'getContentBounds' | 'isDestroyed'>
{
  static created: BaseWindow[] = [];
  readonly contentView = {
    children: [] as WebContentsView[],
    addChildView: vi.fn((view: WebContentsView) => {
      this.contentView.children.push(view);
    }),
  };
  destroyed = false;
  /** Emits 'close' (which a listener may prevent), then 'closed'. */
  close = vi.fn<ElectronBaseWindow['close']>(() => {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented && !this.destroyed) {
      this.destroyed = true;
      this.emit('closed');
    }
  });

  constructor(readonly options: BaseWindowConstructorOptions = {}) {
    super();
    BaseWindow.created.push(this);
  }

  getContentBounds(): Rectangle {
    return { x: 0, y: 0, width: this.options.width ?? 0, height: this.options.height ?? 0 };
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
  fromPartition: vi.fn((...[partition]: Parameters<typeof electronSession.fromPartition>) => {
    const existing = partitions.get(partition) ?? new FakeSession(partition);
    partitions.set(partition, existing);
    return existing;
  }),
};

/** Records what is handed to the system browser and the file manager. */
export const shell = {
  openExternal: vi.fn<Shell['openExternal']>(async () => undefined),
  /** Answers '' (opened), as Electron does; a test may script an error message. */
  openPath: vi.fn<Shell['openPath']>(async () => ''),
} satisfies Pick<Shell, 'openExternal' | 'openPath'>;

/** A menu built from a template: it keeps the template. */
export class FakeMenu {
  constructor(readonly template: MenuItemConstructorOptions[]) {}
}

/** `Menu`: records the application menu set. */
export const Menu = {
  /** The menu `setApplicationMenu` set last (null: none, or removed). */
  application: null as FakeMenu | null,
  buildFromTemplate: vi.fn((template: MenuItemConstructorOptions[]) => new FakeMenu(template)),
  setApplicationMenu: vi.fn((menu: FakeMenu | null) => {
    Menu.application = menu;
  }),
};

/** The app: an event emitter whose readiness and command line the test controls. */
export const app = Object.assign(new EventEmitter(), {
  enableSandbox: vi.fn<App['enableSandbox']>(),
  quit: vi.fn<App['quit']>(),
  exit: vi.fn<App['exit']>(),
  setPath: vi.fn<App['setPath']>(),
  whenReady: vi.fn<App['whenReady']>(() => ready.promise),
  /** Records the badge count (app-attention.ts); answers true, as where a badge exists. */
  setBadgeCount: vi.fn<App['setBadgeCount']>(() => true),
  /** Answers whether this is the first instance: true unless a test says otherwise. */
  requestSingleInstanceLock: vi.fn<App['requestSingleInstanceLock']>(() => true),
  /** Whether the app runs from a packaged build; tests set it. */
  isPackaged: false,
  commandLine: {
    hasSwitch: vi.fn<CommandLine['hasSwitch']>(() => false),
  } satisfies Pick<CommandLine, 'hasSwitch'>,
}) satisfies Pick<
  App,
  | 'enableSandbox'
  | 'quit'
  | 'exit'
  | 'setPath'
  | 'whenReady'
  | 'requestSingleInstanceLock'
  | 'setBadgeCount'
>;

/** The system's power events ('shutdown'), emitted by the test. */
export const powerMonitor = new EventEmitter();

// --- Notifications (waiting cards: app-attention.ts) ---

/**
 * A desktop notification: keeps its options, and whether it was shown and closed. The test
 * clicks it with {@link Notification.click}. `close()` emits nothing: Electron does not promise
 * a 'close' event, so the host must not count on one.
 */
export class Notification
  extends EventEmitter
  implements Pick<ElectronNotification, 'show' | 'close' | 'title' | 'body'>
{
  static created: Notification[] = [];
  /** Whether the system can show notifications: true unless a test says otherwise. */
  static isSupported = vi.fn<(typeof ElectronNotification)['isSupported']>(() => true);
  title: string;
  body: string;
  shown = false;
  closed = false;
  show = vi.fn<ElectronNotification['show']>(() => {
    this.shown = true;
  });
  close = vi.fn<ElectronNotification['close']>(() => {
    this.closed = true;
  });

  constructor(readonly options: NotificationConstructorOptions = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
    Notification.created.push(this);
  }

  /** The user clicks it: 'click', as Electron emits it; only a notification on screen can be. */
  click(): void {
    if (!this.shown || this.closed) {
      throw new Error('only a notification that is shown and not closed can be clicked');
    }
    this.emit('click', { preventDefault: () => undefined, defaultPrevented: false });
  }
}

// --- end of notifications ---

// --- Displays (window state: app-window.ts) ---

/** A display with the given bounds and work area (the bounds less panels, docks, menu bar). */
export function fakeDisplay(id: number, bounds: Rectangle, workArea: Rectangle = bounds): Display {
  return {
    id,
    label: `Display ${id}`,
    bounds,
    workArea,
    size: { width: bounds.width, height: bounds.height },
    workAreaSize: { width: workArea.width, height: workArea.height },
    nativeOrigin: { x: bounds.x, y: bounds.y },
    scaleFactor: 1,
    rotation: 0,
    internal: false,
    detected: true,
    monochrome: false,
    colorDepth: 24,
    colorSpace: '',
    depthPerComponent: 8,
    displayFrequency: 60,
    maximumCursorSize: { width: 0, height: 0 },
    accelerometerSupport: 'unknown',
    touchSupport: 'unknown',
  };
}

/** One 1920×1080 display with a 32-pixel panel at the top: the default desktop. */
function defaultDisplays(): Display[] {
  return [
    fakeDisplay(
      1,
      { x: 0, y: 0, width: 1920, height: 1080 },
      { x: 0, y: 32, width: 1920, height: 1048 },
    ),
  ];
}

/** `screen`: the displays a test sets in {@link screen.displays}, the first one primary. */
export const screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'getDisplayMatching'> & {
  displays: Display[];
} = {
  displays: defaultDisplays(),
  getAllDisplays: vi.fn<Screen['getAllDisplays']>(() => screen.displays),
  getPrimaryDisplay: vi.fn<Screen['getPrimaryDisplay']>(() => {
    const [primary] = screen.displays;
    if (!primary) {
      throw new Error('no display');
    }
    return primary;
  }),
  /** The display the rectangle overlaps most; the primary one when it overlaps none. */
  getDisplayMatching: vi.fn<Screen['getDisplayMatching']>((rect) => {
    const overlap = (display: Display) =>
      Math.max(
        0,
        Math.min(rect.x + rect.width, display.bounds.x + display.bounds.width) -
          Math.max(rect.x, display.bounds.x),
      ) *
      Math.max(
        0,
        Math.min(rect.y + rect.height, display.bounds.y + display.bounds.height) -
          Math.max(rect.y, display.bounds.y),
      );
    const best = [...screen.displays].sort((a, b) => overlap(b) - overlap(a))[0];
    return best && overlap(best) > 0 ? best : screen.getPrimaryDisplay();
  }),
};

// --- end of displays ---

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
  registerSchemesAsPrivileged: vi.fn<Protocol['registerSchemesAsPrivileged']>(),
  handle: vi.fn<Protocol['handle']>(),
} satisfies Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;

/** An `ipcMain.handle` handler, as Electron declares it. */
export type IpcHandler = Parameters<IpcMain['handle']>[1];

/** IPC handlers by channel, as `ipcMain.handle` registered them. */
export const ipcHandlers = new Map<string, IpcHandler>();

/** Records `handle` and `removeHandler`. */
export const ipcMain = {
  handle: vi.fn<IpcMain['handle']>((channel, handler) => {
    if (ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    ipcHandlers.set(channel, handler);
  }),
  removeHandler: vi.fn<IpcMain['removeHandler']>((channel) => {
    ipcHandlers.delete(channel);
  }),
} satisfies Pick<IpcMain, 'handle' | 'removeHandler'>;

/** The part of an `IpcMainInvokeEvent` the host reads: who sent the call, from which frame. */
export type FakeInvokeEvent = { sender: FakeWebContents; senderFrame: FakeFrame | null };

/**
 * Calls the handler `ipcMain.handle` registered for `channel`, as Electron does for an
 * `ipcRenderer.invoke` from `event.sender`: the arguments and the answer are structured-cloned,
 * and a handler that throws (or an answer that cannot be cloned) rejects with Electron's message.
 */
export async function invokeMain(
  channel: string,
  event: FakeInvokeEvent,
  ...args: unknown[]
): Promise<unknown> {
  const handler = ipcHandlers.get(channel);
  if (!handler) {
    throw new Error(`Error invoking remote method '${channel}': Error: No handler registered`);
  }
  try {
    const answer: unknown = await handler(
      asElectron(event),
      ...args.map((arg) => structuredClone(arg)),
    );
    return structuredClone(answer);
  } catch (error) {
    throw new Error(`Error invoking remote method '${channel}': ${String(error)}`);
  }
}

/** The renderer side of IPC: an emitter with a scripted `invoke` whose traffic is cloned. */
export const ipcRenderer = Object.assign(new EventEmitter(), {
  invoke: acrossProcesses(vi.fn<IpcRenderer['invoke']>(), { answer: true }),
}) satisfies Pick<IpcRenderer, 'invoke'>;

/** Records what the preload exposes. */
export const contextBridge = {
  exposeInMainWorld: vi.fn<ContextBridge['exposeInMainWorld']>(),
} satisfies Pick<ContextBridge, 'exposeInMainWorld'>;

/** A scripted folder picker. */
export const dialog = {
  showOpenDialog: vi.fn<Dialog['showOpenDialog']>(),
} satisfies Pick<Dialog, 'showOpenDialog'>;

let nextPid = 4000;

/**
 * What a utility process sees as `process.parentPort`: each message its parent posts arrives as
 * `{ data, ports }`, after the post returns, and waits in a queue until the first 'message'
 * listener is attached.
 */
export class FakeParentPort extends EventEmitter {
  private readonly queued: unknown[] = [];

  /** Takes a message the parent posted (already cloned). */
  deliver(data: unknown): void {
    this.queued.push(data);
    setImmediate(() => this.flush());
  }

  private flush(): void {
    while (this.listenerCount('message') > 0 && this.queued.length > 0) {
      this.emit('message', { data: this.queued.shift(), ports: [] });
    }
  }

  override on(event: string | symbol, listener: Parameters<EventEmitter['on']>[1]): this {
    super.on(event, listener);
    if (event === 'message') {
      setImmediate(() => this.flush());
    }
    return this;
  }
}

/**
 * A utility process as Electron's `ForkUtilityProcess` behaves (lib/browser/api/utility-process.ts
 * and its native wrapper):
 * - no pid until {@link spawn} (Electron's 'spawn' event), none after {@link exit};
 * - `kill()` without a pid does nothing and returns false;
 * - `postMessage` clones the message to {@link parentPort}; after the exit it does nothing;
 * - with `stdio: 'pipe'`, output streams that read `null` once it has exited, and every listener
 *   on them dropped right after 'exit' (the pipes, {@link out} and {@link err}, still carry what
 *   was in them).
 */
export class UtilityProcess
  extends EventEmitter
  implements Pick<ElectronUtilityProcess, 'pid' | 'stdout' | 'stderr' | 'postMessage' | 'kill'>
{
  static created: UtilityProcess[] = [];
  /** The child's `process.parentPort`. */
  readonly parentPort = new FakeParentPort();
  /** The child's end of its stdout pipe (null unless piped). */
  readonly out: PassThrough | null;
  /** The child's end of its stderr pipe (null unless piped). */
  readonly err: PassThrough | null;
  /** Whether `kill()` reached the process. */
  killed = false;
  private osPid: number | undefined;
  private exited = false;

  /** Records the clones the child receives. */
  postMessage = acrossProcesses(
    vi.fn<ElectronUtilityProcess['postMessage']>((message) => {
      if (!this.exited) {
        this.parentPort.deliver(message);
      }
    }),
  );

  kill = vi.fn<ElectronUtilityProcess['kill']>(() => {
    if (this.osPid === undefined) {
      return false;
    }
    this.killed = true;
    return true;
  });

  constructor(
    readonly modulePath: string,
    readonly args: string[] = [],
    readonly options: ForkOptions = {},
  ) {
    super();
    const stdio = options.stdio ?? ['ignore', 'inherit', 'inherit'];
    const piped = (index: 1 | 2) => (typeof stdio === 'string' ? stdio : stdio[index]) === 'pipe';
    this.out = piped(1) ? new PassThrough() : null;
    this.err = piped(2) ? new PassThrough() : null;
    UtilityProcess.created.push(this);
  }

  get pid(): number | undefined {
    return this.osPid;
  }

  get stdout(): PassThrough | null {
    return this.exited ? null : this.out;
  }

  get stderr(): PassThrough | null {
    return this.exited ? null : this.err;
  }

  /** The process has started: it gets its pid, then 'spawn' is emitted. */
  spawn(pid = nextPid++): void {
    this.osPid = pid;
    this.emit('spawn');
  }

  /** The process has exited: 'exit', then no pid, no output streams, no output listeners. */
  exit(code: number): void {
    try {
      this.emit('exit', code);
    } finally {
      this.exited = true;
      this.osPid = undefined;
      this.out?.removeAllListeners();
      this.err?.removeAllListeners();
    }
  }
}

/** `utilityProcess.fork`: a new {@link UtilityProcess}, not spawned yet. */
export const utilityProcess = {
  fork: vi.fn(
    (...args: Parameters<typeof electronUtilityProcess.fork>) => new UtilityProcess(...args),
  ),
};

/**
 * A scripted `safeStorage`: "encrypts" by reversing and tagging, so a test can tell ciphertext
 * from the value. Tests choose whether encryption is available and which Linux backend runs.
 */
export const safeStorage = {
  isEncryptionAvailable: vi.fn<SafeStorage['isEncryptionAvailable']>(() => true),
  getSelectedStorageBackend: vi.fn<SafeStorage['getSelectedStorageBackend']>(
    () => 'gnome_libsecret',
  ),
  encryptString: vi.fn<SafeStorage['encryptString']>((plain) =>
    Buffer.from(`enc:${[...plain].reverse().join('')}`, 'utf8'),
  ),
  decryptString: vi.fn<SafeStorage['decryptString']>((encrypted) => {
    const text = encrypted.toString('utf8');
    if (!text.startsWith('enc:')) {
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    }
    return [...text.slice(4)].reverse().join('');
  }),
} satisfies Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptString' | 'decryptString'
>;

/**
 * A fake as the Electron type it stands in for, where host code takes one. Each fake implements
 * the members of that type the host uses, with Electron's signatures (see their `implements`
 * clauses); only these pairs convert.
 */
export function asElectron(fake: FakeWebContents): WebContents;
export function asElectron(fake: FakeSession): Session;
export function asElectron(fake: FakeInvokeEvent): IpcMainInvokeEvent;
export function asElectron(fake: object): unknown {
  return fake;
}

/**
 * The fake behind a value the host created through `electron` (typed as Electron's own class),
 * checked: it throws unless the value is an instance of the fake class `kind`.
 */
export function fakeOf<F>(kind: abstract new (...args: never[]) => F, value: unknown): F {
  if (!(value instanceof kind)) {
    throw new TypeError(`not a fake ${kind.name}`);
  }
  return value;
}

/** Forgets everything recorded, for a fresh test. */
export function resetFakeElectron(): void {
  vi.clearAllMocks();
  BrowserWindow.created = [];
  BrowserWindow.focused = null;
  BaseWindow.created = [];
  WebContentsView.created = [];
  UtilityProcess.created = [];
  partitions.clear();
  app.commandLine.hasSwitch.mockImplementation(() => false);
  shell.openExternal.mockImplementation(async () => undefined);
  shell.openPath.mockImplementation(async () => '');
  Menu.application = null;
  app.isPackaged = false;
  ipcHandlers.clear();
  ipcRenderer.removeAllListeners();
  app.removeAllListeners();
  powerMonitor.removeAllListeners();
  Notification.created = [];
  Notification.isSupported.mockImplementation(() => true);
  app.setBadgeCount.mockImplementation(() => true);
  app.requestSingleInstanceLock.mockImplementation(() => true);
  screen.displays = defaultDisplays();
  defaultSession = new FakeSession();
  ready = deferred();
}
