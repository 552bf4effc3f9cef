/**
 * The UI's state: agents, sessions and their transcripts, kept in step with the core's events.
 *
 * React reads it through `useSyncExternalStore`; every change replaces the state object, and a
 * batch of transcript events is one change.
 */
import { agentNames } from './agent-names';
import type {
  AgentEntry,
  AirlockApi,
  SecretStorageView,
  SessionSummary,
  TranscriptEvent,
  UrlElicitationView,
} from '../../../preload/shared/contract';
import { reconnectDelay } from '../bridge/backoff';
import { FrameBudget } from './frame-budget';
import { applyEvents, emptyTranscript, type Transcript } from './transcript';

/** Events that open a card waiting on the user. */
const CARD_EVENTS = new Set<TranscriptEvent['type']>([
  'permission',
  'elicitation',
  'url_elicitation',
]);

/** Everything the UI shows. */
export type AppState = {
  loaded: boolean;
  agents: AgentEntry[];
  settingsPath: string;
  settingsError?: string;
  defaultCwd: string;
  canPickFolder: boolean;
  /** Whether sign-in values can be kept in the system keychain on this host. */
  secretStorage: SecretStorageView;
  /** How URL elicitations open on this host: the default place, and who opens them. */
  urlElicitation: UrlElicitationView;
  sessions: SessionSummary[];
  transcripts: Record<string, Transcript>;
  activeKey?: string;
  disconnected: boolean;
  /** Why the first load failed, until a later try succeeds. */
  loadError?: string;
};

/** Holds the state and applies the core's events to it. */
export class Store {
  private state: AppState = {
    loaded: false,
    agents: [],
    settingsPath: '',
    defaultCwd: '',
    canPickFolder: false,
    secretStorage: { available: false, description: '' },
    urlElicitation: { default: 'isolated_window', opener: 'page' },
    sessions: [],
    transcripts: {},
    disconnected: false,
  };
  private readonly listeners = new Set<() => void>();
  /** Sessions whose transcript snapshot is being fetched; their earlier events are in it. */
  private readonly loading = new Set<string>();
  /** Events received but not yet applied: they are applied at most once per frame. */
  private readonly queued = new Map<string, TranscriptEvent[]>();
  private applyScheduled = false;
  /** Whether the scheduled apply follows straight on from one that left events queued. */
  private applyContinues = false;
  private readonly budget = new FrameBudget();
  /** Posting to it runs an apply in a task of its own. */
  private readonly afterFrame: MessagePort;

  constructor(readonly api: AirlockApi) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => this.applyQueued(this.budget.current);
    this.afterFrame = channel.port2;
    api.on('session:onDidAppend', ({ key, events }) => {
      if (this.loading.has(key)) {
        return;
      }
      const queued = this.queued.get(key);
      if (queued) {
        queued.push(...events);
      } else {
        this.queued.set(key, [...events]);
      }
      // A card waits on the user: show it now, with what came before it, not a frame later.
      if (events.some((event) => CARD_EVENTS.has(event.type))) {
        this.applyQueued();
        return;
      }
      this.scheduleApply();
    });
    api.on('session:onDidChange', (summary) => this.upsertSession(summary));
    api.on('app:onDidChangeAgents', ({ agents, settingsError }) =>
      this.set({ agents, settingsError }),
    );
  }

  /** The latest load: an older one that ends late changes nothing. */
  private loadRun: symbol | undefined;
  /** Failed loads in a row: the pause before the next try grows with them. */
  private loadFailures = 0;
  private loadRetry: ReturnType<typeof setTimeout> | undefined;

  /**
   * Loads the app state and every open session's transcript. When that fails, it is tried
   * again until it works: while the link to the core is down, by the link's own reconnect
   * (which calls `reattach`, and so this, once it is up); otherwise after the same growing
   * pauses the link waits between its tries.
   */
  async load(): Promise<void> {
    const run = Symbol('load');
    this.loadRun = run;
    clearTimeout(this.loadRetry);
    this.loadRetry = undefined;
    let keys: string[] = [];
    try {
      const state = await this.api.invoke('app:getState', {});
      keys = state.sessions.map((session) => session.key);
      for (const key of keys) {
        this.loading.add(key);
        // Events queued before the state came are in the snapshot too.
        this.queued.delete(key);
      }
      const transcripts: Record<string, Transcript> = {};
      for (const key of keys) {
        // The core flushes pending events before it answers, so events that arrive after
        // this answer are exactly the ones the snapshot lacks.
        const { events } = await this.api.invoke('session:getTranscript', { key });
        transcripts[key] = applyEvents(emptyTranscript(), events);
        this.loading.delete(key);
      }
      if (this.loadRun !== run) {
        return;
      }
      this.loadFailures = 0;
      this.set({
        loaded: true,
        loadError: undefined,
        disconnected: false,
        agents: state.agents,
        settingsPath: state.settingsPath,
        settingsError: state.settingsError,
        defaultCwd: state.defaultCwd,
        canPickFolder: state.canPickFolder,
        secretStorage: state.secretStorage,
        urlElicitation: state.urlElicitation,
        sessions: state.sessions,
        transcripts: { ...this.state.transcripts, ...transcripts },
        activeKey: this.state.activeKey ?? state.sessions[0]?.key,
      });
    } catch (error) {
      if (this.loadRun !== run) {
        return;
      }
      for (const key of keys) {
        this.loading.delete(key);
      }
      this.set({ loadError: (error as Error).message });
      if (!this.state.disconnected) {
        this.loadRetry = setTimeout(() => void this.load(), reconnectDelay(this.loadFailures));
      }
      this.loadFailures += 1;
    }
  }

  /** Subscribes to changes (for `useSyncExternalStore`). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current state (for `useSyncExternalStore`). */
  getState = (): AppState => this.state;

  /** Shows a session. */
  activate(key: string): void {
    this.set({ activeKey: key });
  }

  /** Marks the link to the core as lost. */
  disconnect(): void {
    this.set({ disconnected: true });
  }

  /** The latest reattach: an older one that ends late does not show the link as up. */
  private attaching: symbol | undefined;

  /**
   * Attaches again after the link to the core came back: events sent while it was down are
   * lost, so the sessions and every transcript are taken afresh, and the link shows as up once
   * they are. If it drops again meanwhile, it stays down (the next reconnect tries again).
   */
  async reattach(): Promise<void> {
    if (!this.state.loaded) {
      // The link came up for the first time, or again before the first load worked.
      return this.load();
    }
    const attaching = Symbol('reattach');
    this.attaching = attaching;
    // The core may be a new one: it is told again which session is shown.
    this.toldShown = undefined;
    let keys: string[] = [];
    try {
      const state = await this.api.invoke('app:getState', {});
      keys = state.sessions.map((session) => session.key);
      for (const key of keys) {
        this.loading.add(key);
        this.queued.delete(key);
      }
      // Summaries that change from now on arrive as events, on top of these.
      const shown = keys.includes(this.state.activeKey ?? '') ? this.state.activeKey : keys[0];
      // A session that closed while the link was down takes its transcript with it.
      const transcripts = Object.fromEntries(
        Object.entries(this.state.transcripts).filter(([key]) => keys.includes(key)),
      );
      for (const key of this.queued.keys()) {
        if (!keys.includes(key)) {
          this.queued.delete(key);
        }
      }
      this.set({
        agents: state.agents,
        settingsError: state.settingsError,
        sessions: state.sessions,
        transcripts,
        activeKey: shown,
      });
      for (const key of keys) {
        const { events } = await this.api.invoke('session:getTranscript', { key });
        this.loading.delete(key);
        if (this.state.sessions.some((session) => session.key === key)) {
          this.set({
            transcripts: {
              ...this.state.transcripts,
              [key]: applyEvents(emptyTranscript(), events),
            },
          });
        }
      }
      if (this.attaching === attaching) {
        this.set({ disconnected: false });
      }
    } catch {
      // The link dropped again: it shows as down until the next reconnect attaches.
    } finally {
      for (const key of keys) {
        this.loading.delete(key);
      }
    }
  }

  private scheduleApply(continues = false): void {
    if (this.applyScheduled) {
      return;
    }
    this.applyScheduled = true;
    this.applyContinues = continues;
    // A hidden page gets no animation frames; it still takes the events, less often.
    if (document.hidden) {
      setTimeout(() => this.applyQueued(), 100);
      return;
    }
    // Once per frame, in a task of its own after the frame: rendering the new rows and the
    // browser laying them out and measuring them then land in two tasks, not one.
    requestAnimationFrame((timestamp) => {
      this.budget.frame(timestamp, this.applyContinues);
      this.afterFrame.postMessage(null);
    });
  }

  /**
   * Applies queued events. Per frame, about `budget` characters of text (see `FrameBudget`): a
   * burst then reaches the screen over several frames instead of in one long task.
   */
  private applyQueued(budget?: number): void {
    this.applyScheduled = false;
    if (this.queued.size === 0) {
      return;
    }
    const start = performance.now();
    const transcripts = { ...this.state.transcripts };
    let left = budget ?? Number.POSITIVE_INFINITY;
    // The session shown takes the budget first: with many streaming at once, the others' text
    // never holds back the one on screen.
    const shown = this.state.activeKey;
    const order = [...this.queued.keys()].sort((a, b) => Number(b === shown) - Number(a === shown));
    for (const key of order) {
      const events = this.queued.get(key)!;
      let taken = 0;
      while (taken < events.length && left > 0) {
        const event = events[taken++]!;
        left -= event.type === 'chunk' ? event.text.length : 200;
      }
      transcripts[key] = applyEvents(
        transcripts[key] ?? emptyTranscript(),
        events.splice(0, taken),
      );
      if (events.length === 0) {
        this.queued.delete(key);
      }
      if (left <= 0) {
        break;
      }
    }
    this.set({ transcripts });
    const more = this.queued.size > 0;
    if (budget !== undefined) {
      // React renders the change in a microtask that `set` queued; this one runs after it.
      queueMicrotask(() => this.budget.took(performance.now() - start, more));
    }
    if (more) {
      this.scheduleApply(true);
    }
  }

  /** The session the core was last told this page shows. */
  private toldShown: string | undefined;

  /**
   * Tells the core which session this page shows, when that changed: the core sends its events
   * first. A session that closed meanwhile is no error worth showing.
   */
  private tellShown(): void {
    const key = this.state.activeKey;
    if (key === undefined || key === this.toldShown) {
      return;
    }
    this.toldShown = key;
    this.api.invoke('session:show', { key }).catch(() => {
      if (this.toldShown === key) {
        this.toldShown = undefined;
      }
    });
  }

  private upsertSession(summary: SessionSummary): void {
    if (summary.status === 'closed') {
      this.queued.delete(summary.key);
      const sessions = this.state.sessions.filter((session) => session.key !== summary.key);
      const transcripts = { ...this.state.transcripts };
      delete transcripts[summary.key];
      const activeKey =
        this.state.activeKey === summary.key ? sessions.at(-1)?.key : this.state.activeKey;
      this.set({ sessions, transcripts, activeKey });
      return;
    }
    const index = this.state.sessions.findIndex((session) => session.key === summary.key);
    const sessions =
      index === -1
        ? [...this.state.sessions, summary]
        : this.state.sessions.map((session, i) => (i === index ? summary : session));
    this.set({ sessions });
  }

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    if (patch.agents) {
      agentNames.set(patch.agents);
    }
    this.tellShown();
    for (const listener of this.listeners) {
      listener();
    }
  }
}
