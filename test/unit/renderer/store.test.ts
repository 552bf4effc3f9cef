/**
 * The renderer's store against a scripted core: how it (re)attaches, how it paces transcript
 * events per frame, what it does on a hidden page, which cards skip the wait, and which tab it
 * shows when one closes.
 *
 * It runs in Node, with the few browser pieces the store uses stubbed: animation frames the
 * test runs by hand, a MessageChannel whose messages the test delivers, and `document.hidden`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AirlockApi,
  CallChannel,
  CallRequest,
  CallResponse,
  EventChannel,
  EventPayload,
  SessionSummary,
  TranscriptEvent,
} from '../../../preload/shared/contract.js';
import {
  LATE_FACTOR,
  LATE_MS,
  START_CHARS,
  TARGET_MS,
} from '../../../renderer/src/state/frame-budget.js';
import { RECONNECT_DELAYS_MS } from '../../../renderer/src/bridge/backoff.js';
import { Store } from '../../../renderer/src/state/store.js';
import type { Transcript } from '../../../renderer/src/state/transcript.js';
import { sessionSummary } from '../../helpers/session-summary.js';
import { opened } from '../../helpers/url-analysis.js';

type Answers = { [C in CallChannel]?: (request: CallRequest<C>) => Promise<CallResponse<C>> };

/** The core as the store sees it through `window.airlock`: scripted answers, events on demand. */
class ScriptedCore implements AirlockApi {
  readonly answers: Answers = {};
  private readonly listeners = new Map<EventChannel, Set<(payload: never) => void>>();

  invoke<C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>> {
    const answer = this.answers[channel] as
      ((request: CallRequest<C>) => Promise<CallResponse<C>>) | undefined;
    return answer ? answer(request) : Promise.reject(new Error(`unscripted call ${channel}`));
  }

  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void {
    const set = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners.get(channel) ?? []) {
      (listener as (payload: EventPayload<E>) => void)(payload);
    }
  }

  append(key: string, ...events: TranscriptEvent[]): void {
    this.emit('session:onDidAppend', { key, events });
  }
}

/**
 * Animation frames and the store's after-frame task, run by the test: `requestAnimationFrame`
 * only records its callback, and a message posted on a MessageChannel waits for `run`.
 */
class Frames {
  private callbacks: FrameRequestCallback[] = [];
  private readonly posted: (() => void)[] = [];

  readonly requestAnimationFrame = (callback: FrameRequestCallback): number =>
    this.callbacks.push(callback);

  readonly MessageChannel = (() => {
    const posted = this.posted;
    return class {
      readonly port1: { onmessage: ((event: MessageEvent) => void) | null } = { onmessage: null };
      readonly port2 = {
        postMessage: (data: unknown) =>
          posted.push(() => this.port1.onmessage?.(new MessageEvent('message', { data }))),
      };
    };
  })();

  /** Frames requested and not run yet. */
  get requested(): number {
    return this.callbacks.length;
  }

  /** Runs the requested frames' callbacks at `timestamp`, and nothing after them. */
  runCallbacks(timestamp = 0): void {
    for (const callback of this.callbacks.splice(0)) {
      callback(timestamp);
    }
  }

  /**
   * Runs the requested frames at `timestamp`, then the tasks they posted, then the microtasks
   * those queued (where the store tells the budget what the frame cost).
   */
  async run(timestamp = 0): Promise<void> {
    this.runCallbacks(timestamp);
    for (const task of this.posted.splice(0)) {
      task();
    }
    await Promise.resolve();
  }
}

const summary = (key: string, status: SessionSummary['status'] = 'ready'): SessionSummary =>
  sessionSummary({ key, status });

const chunk = (text: string): TranscriptEvent => ({ type: 'chunk', role: 'agent', text });
const notice = (title: string): TranscriptEvent => ({ type: 'notice', severity: 'info', title });

const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
const cards: [string, TranscriptEvent][] = [
  [
    'permission',
    {
      type: 'permission',
      promptKey: 'p1',
      agent,
      toolCallId: 'c1',
      options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
    },
  ],
  [
    'elicitation',
    {
      type: 'elicitation',
      cardKey: 'e1',
      agent,
      scope: 'session',
      message: 'Your name?',
      mode: 'form',
      form: { fields: [] },
    },
  ],
  [
    'url_elicitation',
    {
      type: 'url_elicitation',
      cardKey: 'e2',
      agent,
      scope: 'session',
      message: 'Sign in',
      url: opened('https://github.com/login'),
    },
  ],
];

/** The agent's text in a transcript, joined. */
const textOf = (transcript: Transcript | undefined) =>
  (transcript?.rows ?? []).flatMap((row) => (row.kind === 'text' ? [row.text] : [])).join('');

/** The kinds of a transcript's rows, in order. */
const kindsOf = (transcript: Transcript | undefined) => (transcript?.rows ?? []).map((r) => r.kind);

let core: ScriptedCore;
let frames: Frames;
let page: { hidden: boolean };
let store: Store;

beforeEach(() => {
  core = new ScriptedCore();
  frames = new Frames();
  page = { hidden: false };
  vi.stubGlobal('requestAnimationFrame', frames.requestAnimationFrame);
  vi.stubGlobal('MessageChannel', frames.MessageChannel);
  vi.stubGlobal('document', page);
  store = new Store(core);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const transcript = (key: string) => store.getState().transcripts[key];

/** Scripts `app:getState` with these sessions and the defaults for everything else. */
function scriptState(sessions: SessionSummary[]): void {
  core.answers['app:getState'] = async () => ({
    agents: [],
    settingsPath: '/config/settings.json',
    defaultCwd: '/work',
    canPickFolder: false,
    secretStorage: { available: false, description: 'none' },
    urlElicitation: { default: 'isolated_window', opener: 'page' },
    sessions,
  });
}

type Answer = (events: TranscriptEvent[]) => void;

/**
 * Scripts `session:getTranscript` to wait until the test answers it. `asked(key)` resolves,
 * once the store has asked for that session's snapshot, with the function that answers.
 */
function heldTranscripts(): { asked(key: string): Promise<Answer> } {
  const waiting = new Map<
    string,
    { promise: Promise<Answer>; resolve: (answer: Answer) => void }
  >();
  const slot = (key: string) => {
    let entry = waiting.get(key);
    if (!entry) {
      let resolve: (answer: Answer) => void = () => undefined;
      const promise = new Promise<Answer>((done) => (resolve = done));
      entry = { promise, resolve };
      waiting.set(key, entry);
    }
    return entry;
  };
  core.answers['session:getTranscript'] = ({ key }) =>
    new Promise((resolve) => slot(key).resolve((events) => resolve({ events })));
  return { asked: (key) => slot(key).promise };
}

describe('load: attaching to the core', () => {
  it('takes the state and every session’s transcript snapshot, and shows the first session', async () => {
    scriptState([summary('s1'), summary('s2')]);
    const snapshots: Record<string, TranscriptEvent[]> = {
      s1: [chunk('one')],
      s2: [chunk('two')],
    };
    core.answers['session:getTranscript'] = async ({ key }) => ({ events: snapshots[key] ?? [] });
    await store.load();
    const state = store.getState();
    expect(state).toMatchObject({ loaded: true, settingsPath: '/config/settings.json' });
    expect(state.sessions.map((session) => session.key)).toEqual(['s1', 's2']);
    expect(textOf(transcript('s1'))).toBe('one');
    expect(textOf(transcript('s2'))).toBe('two');
    expect(state.activeKey).toBe('s1');
  });

  it('drops events that arrive while a snapshot is fetched: the snapshot has them', async () => {
    scriptState([summary('s1')]);
    const held = heldTranscripts();
    const loaded = store.load();
    const answer = await held.asked('s1');
    // The core flushed this before answering, so the snapshot below holds it too.
    core.append('s1', chunk('during'));
    answer([chunk('before '), chunk('during')]);
    await loaded;
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('before during');
  });

  it('drops events that arrived before the state did: the snapshot has them too', async () => {
    let answerState: () => void = () => undefined;
    const stated = new Promise<void>((resolve) => (answerState = resolve));
    scriptState([summary('s1')]);
    const answerWithState = core.answers['app:getState']!;
    core.answers['app:getState'] = async (request) => {
      await stated;
      return answerWithState(request);
    };
    core.answers['session:getTranscript'] = async () => ({ events: [chunk('early')] });
    const loaded = store.load();
    // Queued for a frame that has not run when the state and the snapshot arrive.
    core.append('s1', chunk('early'));
    answerState();
    await loaded;
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('early');
  });

  it('applies the events that arrive after the snapshot', async () => {
    scriptState([summary('s1')]);
    core.answers['session:getTranscript'] = async () => ({ events: [chunk('before ')] });
    await store.load();
    core.append('s1', chunk('after'));
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('before after');
  });

  it('keeps a transcript begun during the load for a session the state did not list', async () => {
    scriptState([summary('s1')]);
    const held = heldTranscripts();
    const loaded = store.load();
    const answer = await held.asked('s1');
    core.append('s9', chunk('new tab'));
    await frames.run();
    answer([]);
    await loaded;
    expect(textOf(transcript('s9'))).toBe('new tab');
  });

  it('keeps the session the user chose while it loaded', async () => {
    scriptState([summary('s1'), summary('s2')]);
    const held = heldTranscripts();
    const loaded = store.load();
    const answerFirst = await held.asked('s1');
    store.activate('s2');
    answerFirst([]);
    (await held.asked('s2'))([]);
    await loaded;
    expect(store.getState().activeKey).toBe('s2');
  });

  it('starts empty, not loaded, with the defaults of a host that can do nothing yet', () => {
    expect(store.getState()).toEqual({
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
    });
  });

  /** Scripts `app:getState` to wait; returns how to answer it (sessions, or an error). */
  function heldState(): (answer: SessionSummary[] | Error) => void {
    let settle: (answer: SessionSummary[] | Error) => void = () => undefined;
    core.answers['app:getState'] = () =>
      new Promise((resolve, reject) => {
        settle = (answer) =>
          answer instanceof Error
            ? reject(answer)
            : resolve({
                agents: [],
                settingsPath: '/old/settings.json',
                defaultCwd: '/old',
                canPickFolder: false,
                secretStorage: { available: false, description: 'none' },
                urlElicitation: { default: 'isolated_window', opener: 'page' },
                sessions: answer,
              });
      });
    return (answer) => settle(answer);
  }

  it('lets an older load that ends late change nothing', async () => {
    const answerOld = heldState();
    core.answers['session:getTranscript'] = async () => ({ events: [] });
    const old = store.load();
    scriptState([summary('s2')]);
    await store.load();
    answerOld([summary('s1')]);
    await old;
    expect(store.getState()).toMatchObject({ settingsPath: '/config/settings.json' });
    expect(store.getState().sessions.map((session) => session.key)).toEqual(['s2']);
  });

  it('lets an older load that fails late show no error and try nothing again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const failOld = heldState();
    const old = store.load();
    scriptState([]);
    await store.load();
    failOld(new Error('too late'));
    await old;
    expect(store.getState()).toMatchObject({ loaded: true, loadError: undefined });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('applies events again for a session whose snapshot failed to load', async () => {
    scriptState([summary('s1')]);
    core.answers['session:getTranscript'] = () => Promise.reject(new Error('gone'));
    await store.load();
    expect(store.getState().loadError).toBe('gone');
    core.append('s1', chunk('after'));
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('after');
  });

  it('reports a failed load instead of throwing', async () => {
    core.answers['app:getState'] = () => Promise.reject(new Error('The connection was lost'));
    await store.load();
    expect(store.getState()).toMatchObject({ loaded: false, loadError: 'The connection was lost' });
  });
});

describe('load: when the first load fails', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  const failing = () => {
    const tries = vi.fn(() => Promise.reject(new Error('Airlock is busy')));
    core.answers['app:getState'] = tries;
    return tries;
  };

  it('tries again by itself after growing pauses while the link is up, and clears the error once one works', async () => {
    const tries = failing();
    await store.load();
    expect(tries).toHaveBeenCalledTimes(1);
    for (const [i, delay] of RECONNECT_DELAYS_MS.slice(0, 3).entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(tries).toHaveBeenCalledTimes(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(tries).toHaveBeenCalledTimes(i + 2);
    }
    scriptState([summary('s1')]);
    core.answers['session:getTranscript'] = async () => ({ events: [] });
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAYS_MS[3]!);
    expect(store.getState()).toMatchObject({ loaded: true, loadError: undefined, activeKey: 's1' });
  });

  it('leaves the retries to the link while it is down, and loads once it is up', async () => {
    const tries = failing();
    store.disconnect();
    await store.load();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tries).toHaveBeenCalledTimes(1);
    // The bridge says the link is up: the store attaches, which, before any load worked, loads.
    scriptState([]);
    await store.reattach();
    expect(store.getState()).toMatchObject({ loaded: true, disconnected: false });
    expect(store.getState().loadError).toBeUndefined();
  });

  it('tries at once when asked, in place of the pending retry', async () => {
    const tries = failing();
    await store.load();
    await store.load();
    expect(tries).toHaveBeenCalledTimes(2);
    // One retry is pending, not two: the second load replaced the first one's.
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAYS_MS[1]!);
    expect(tries).toHaveBeenCalledTimes(3);
  });
});

describe('reattach: after the link came back', () => {
  beforeEach(async () => {
    scriptState([summary('s1'), summary('s2')]);
    core.answers['session:getTranscript'] = async ({ key }) => ({ events: [chunk(`${key} old`)] });
    await store.load();
    store.activate('s2');
    store.disconnect();
  });

  it('takes the sessions and every transcript afresh, then shows the link as up', async () => {
    scriptState([summary('s1'), summary('s2'), summary('s3')]);
    core.answers['session:getTranscript'] = async ({ key }) => ({ events: [chunk(`${key} new`)] });
    await store.reattach();
    const state = store.getState();
    expect(state.sessions.map((session) => session.key)).toEqual(['s1', 's2', 's3']);
    expect([textOf(transcript('s1')), textOf(transcript('s2')), textOf(transcript('s3'))]).toEqual([
      's1 new',
      's2 new',
      's3 new',
    ]);
    expect(state).toMatchObject({ activeKey: 's2', disconnected: false });
  });

  it('shows the first session when the one shown is gone, and lets go of its transcript', async () => {
    scriptState([summary('s1')]);
    core.append('s2', chunk(' queued while down'));
    await store.reattach();
    expect(store.getState().activeKey).toBe('s1');
    expect(store.getState().sessions.map((session) => session.key)).toEqual(['s1']);
    expect(Object.keys(store.getState().transcripts)).toEqual(['s1']);
    // Nor does text queued for it come back with the next frame.
    await frames.run();
    expect(Object.keys(store.getState().transcripts)).toEqual(['s1']);
  });

  it('drops events that arrive while a snapshot is fetched, and applies those after it', async () => {
    scriptState([summary('s1')]);
    const held = heldTranscripts();
    const attached = store.reattach();
    const answer = await held.asked('s1');
    core.append('s1', chunk('during'));
    answer([chunk('snapshot, during')]);
    await attached;
    core.append('s1', chunk(', after'));
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('snapshot, during, after');
  });

  it('does not bring back a session that closed while its snapshot was fetched', async () => {
    scriptState([summary('s1'), summary('s2')]);
    const held = heldTranscripts();
    const attached = store.reattach();
    (await held.asked('s1'))([chunk('s1 new')]);
    const answerS2 = await held.asked('s2');
    core.emit('session:onDidChange', summary('s2', 'closed'));
    answerS2([chunk('s2 new')]);
    await attached;
    expect(transcript('s2')).toBeUndefined();
    expect(textOf(transcript('s1'))).toBe('s1 new');
  });

  it('leaves the link down when an older reattach ends after a newer one began', async () => {
    scriptState([summary('s1')]);
    const held = heldTranscripts();
    const older = store.reattach();
    const answerOlder = await held.asked('s1');
    // The link dropped and came back meanwhile: a second reattach begins.
    store.disconnect();
    core.answers['session:getTranscript'] = () => new Promise(() => undefined);
    void store.reattach();
    answerOlder([]);
    await older;
    expect(store.getState().disconnected).toBe(true);
  });

  it('stays down when the link drops again, and applies events once it gave up', async () => {
    scriptState([summary('s1')]);
    core.answers['session:getTranscript'] = () => Promise.reject(new Error('link lost'));
    await store.reattach();
    expect(store.getState().disconnected).toBe(true);
    core.append('s1', chunk('later'));
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('s1 oldlater');
  });
});

describe('transcript events: at most one apply per frame', () => {
  it('applies nothing at once, then everything in the task after the next frame', async () => {
    const changes = vi.fn();
    store.subscribe(changes);
    core.append('s1', chunk('Hel'));
    core.append('s1', chunk('lo'));
    expect(transcript('s1')).toBeUndefined();
    expect(changes).not.toHaveBeenCalled();
    expect(frames.requested).toBe(1);
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('Hello');
    // One batch, one change: React renders it once.
    expect(changes).toHaveBeenCalledTimes(1);
    expect(frames.requested).toBe(0);
  });

  it('applies in a task of its own after the frame, not in the frame callback', async () => {
    core.append('s1', chunk('later'));
    frames.runCallbacks();
    expect(transcript('s1')).toBeUndefined();
    await frames.run();
    expect(textOf(transcript('s1'))).toBe('later');
  });

  it('spreads a burst over frames, about the budget’s characters each', async () => {
    const piece = 'x'.repeat(START_CHARS * 0.75);
    core.append('s1', chunk(piece), chunk(piece), chunk(piece));
    await frames.run(0);
    // The second piece overruns the budget; the third waits for the next frame.
    expect(textOf(transcript('s1'))).toBe(piece.repeat(2));
    expect(frames.requested).toBe(1);
    await frames.run(16);
    expect(textOf(transcript('s1'))).toBe(piece.repeat(3));
    expect(frames.requested).toBe(0);
  });

  it('counts an event that is not text as 200 characters', async () => {
    const count = START_CHARS / 200;
    core.append('s1', ...Array.from({ length: count + 2 }, (_, i) => notice(`n${i}`)));
    await frames.run(0);
    expect(kindsOf(transcript('s1'))).toHaveLength(count);
    await frames.run(16);
    expect(kindsOf(transcript('s1'))).toHaveLength(count + 2);
  });

  it('shares the budget between sessions: one left over waits for the next frame', async () => {
    core.append('s1', chunk('x'.repeat(START_CHARS)));
    core.append('s2', chunk('y'));
    await frames.run(0);
    expect(textOf(transcript('s1'))).toHaveLength(START_CHARS);
    expect(transcript('s2')).toBeUndefined();
    await frames.run(16);
    expect(textOf(transcript('s2'))).toBe('y');
  });

  it('gives the shown session the budget first, whichever queued first', async () => {
    store.activate('s2');
    core.append('s1', chunk('x'.repeat(START_CHARS)));
    core.append('s2', chunk('y'.repeat(START_CHARS)));
    await frames.run(0);
    expect(textOf(transcript('s2'))).toHaveLength(START_CHARS);
    expect(transcript('s1')).toBeUndefined();
    await frames.run(16);
    expect(textOf(transcript('s1'))).toHaveLength(START_CHARS);
  });

  it('applies every session in one frame while the budget lasts', async () => {
    core.append('s1', chunk('a'));
    core.append('s2', chunk('b'));
    await frames.run();
    expect([textOf(transcript('s1')), textOf(transcript('s2'))]).toEqual(['a', 'b']);
    expect(frames.requested).toBe(0);
  });

  it('makes no change in a frame that finds nothing left to apply', async () => {
    core.append('s1', chunk('before'));
    // A card applies everything queued at once; the frame asked for before it finds nothing.
    core.append('s1', cards[0]![1]);
    const changes = vi.fn();
    store.subscribe(changes);
    await frames.run();
    expect(changes).not.toHaveBeenCalled();
  });

  describe('the budget follows what frames cost', () => {
    /** A burst of 100-character chunks; returns how many each frame took in. */
    async function burst(timestamps: number[]): Promise<number[]> {
      core.append('s1', ...Array.from({ length: 400 }, () => chunk('z'.repeat(100))));
      const taken: number[] = [];
      let before = 0;
      for (const timestamp of timestamps) {
        await frames.run(timestamp);
        const now = textOf(transcript('s1')).length / 100;
        taken.push(now - before);
        before = now;
      }
      return taken;
    }

    it('grows while frames that used it all were quick', async () => {
      let clock = 0;
      // Each apply seems to take half the aim: the amount doubles.
      vi.spyOn(performance, 'now').mockImplementation(() => (clock += TARGET_MS / 2));
      const start = START_CHARS / 100;
      expect(await burst([0, 16, 32])).toEqual([start, start * 2, start * 4]);
    });

    it('shrinks after a frame that took too long', async () => {
      let clock = 0;
      // Every reading is 80 ms after the last: each apply seems to take 80 ms, over twice the
      // most it may take.
      vi.spyOn(performance, 'now').mockImplementation(() => (clock += 80));
      expect(await burst([0, 16])).toEqual([START_CHARS / 100, START_CHARS / 200]);
    });

    it('does not count a card, applied outside any frame, as a frame', async () => {
      let clock = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (clock += 20));
      // Slow as it may be, a card's apply is no frame's cost.
      core.append('s0', cards[0]![1]);
      // Its microtasks run before the next frame, as in the browser.
      await Promise.resolve();
      const [first] = await burst([0]);
      expect(first).toBe(START_CHARS / 100);
    });

    it('shrinks when a frame that continues a burst comes late after one over the aim', async () => {
      let clock = 0;
      // Each apply seems to take a little over the aim: the amount holds, until a frame is late.
      vi.spyOn(performance, 'now').mockImplementation(() => (clock += TARGET_MS + 4));
      const [first, late] = await burst([0, LATE_MS * 10]);
      expect(first).toBe(START_CHARS / 100);
      expect(late).toBe((START_CHARS * LATE_FACTOR) / 100);
    });

    it('does not count the gap before a new burst as a late frame', async () => {
      vi.spyOn(performance, 'now').mockReturnValue(1_000);
      core.append('s0', chunk('a'));
      await frames.run(0);
      // A pause, then a new burst: its first frame is not late, so the amount is not halved.
      const [first] = await burst([10_000]);
      expect(first).toBe(START_CHARS / 100);
    });
  });
});

describe('transcript events on a hidden page', () => {
  it('are applied all at once every 100 ms, without animation frames', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    page.hidden = true;
    const piece = 'h'.repeat(START_CHARS);
    core.append('s1', chunk(piece), chunk(piece), chunk(piece));
    expect(frames.requested).toBe(0);
    vi.advanceTimersByTime(99);
    expect(transcript('s1')).toBeUndefined();
    vi.advanceTimersByTime(1);
    // No per-frame budget: a hidden page draws nothing, so it takes in the whole burst.
    expect(textOf(transcript('s1'))).toBe(piece.repeat(3));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('cards: applied as they arrive', () => {
  it.each(cards)('shows a %s card at once, with the events queued before it', (kind, card) => {
    core.append('s1', chunk('Let me check.'));
    core.append('s1', chunk(' May I?'), card);
    expect(kindsOf(transcript('s1'))).toEqual(['text', kind]);
    expect(textOf(transcript('s1'))).toBe('Let me check. May I?');
  });

  it('asks for no frame for a card, and the frame asked for before it applies nothing twice', async () => {
    core.append('s1', cards[0]![1]);
    expect(frames.requested).toBe(0);
    core.append('s2', chunk('before'));
    core.append('s2', cards[1]![1]);
    await frames.run();
    expect(kindsOf(transcript('s2'))).toEqual(['text', 'elicitation']);
  });
});

describe('sessions', () => {
  it('adds a new session at the end and replaces a known one in place', () => {
    core.emit('session:onDidChange', summary('s1', 'starting'));
    core.emit('session:onDidChange', summary('s2', 'starting'));
    core.emit('session:onDidChange', summary('s1', 'ready'));
    expect(store.getState().sessions.map(({ key, status }) => [key, status])).toEqual([
      ['s1', 'ready'],
      ['s2', 'starting'],
    ]);
  });

  describe('when a session closes', () => {
    beforeEach(async () => {
      scriptState([summary('s1'), summary('s2'), summary('s3')]);
      core.answers['session:getTranscript'] = async () => ({ events: [chunk('hi')] });
      await store.load();
    });

    const keys = () => store.getState().sessions.map((session) => session.key);

    it('shows the last remaining session when the active one closed', () => {
      store.activate('s2');
      core.emit('session:onDidChange', summary('s2', 'closed'));
      expect(keys()).toEqual(['s1', 's3']);
      expect(store.getState().activeKey).toBe('s3');
      expect(transcript('s2')).toBeUndefined();
      expect(textOf(transcript('s1'))).toBe('hi');
    });

    it('shows the last session, not the second, when the first of many closed', () => {
      core.emit('session:onDidChange', summary('s4'));
      store.activate('s1');
      core.emit('session:onDidChange', summary('s1', 'closed'));
      expect(keys()).toEqual(['s2', 's3', 's4']);
      expect(store.getState().activeKey).toBe('s4');
    });

    it('keeps showing the active session when another one closed', () => {
      store.activate('s1');
      core.emit('session:onDidChange', summary('s3', 'closed'));
      expect(keys()).toEqual(['s1', 's2']);
      expect(store.getState().activeKey).toBe('s1');
    });

    it('shows nothing when the last one closed', () => {
      for (const key of ['s1', 's2', 's3']) {
        core.emit('session:onDidChange', summary(key, 'closed'));
      }
      expect(keys()).toEqual([]);
      expect(store.getState().activeKey).toBeUndefined();
    });

    it('drops its events still waiting for a frame', async () => {
      core.append('s2', chunk(' bye'));
      core.emit('session:onDidChange', summary('s2', 'closed'));
      await frames.run();
      expect(transcript('s2')).toBeUndefined();
    });
  });
});

describe('the rest of the state', () => {
  it('follows the agents list and the settings error', () => {
    const agents = [{ name: 'Demo Agent', commandLine: 'demo', builtIn: true }];
    core.emit('app:onDidChangeAgents', { agents, settingsError: 'line 3: unexpected comma' });
    expect(store.getState()).toMatchObject({ agents, settingsError: 'line 3: unexpected comma' });
  });

  it('marks the link lost on disconnect', () => {
    store.disconnect();
    expect(store.getState().disconnected).toBe(true);
  });

  it('tells subscribers about every change until they unsubscribe', () => {
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.activate('s1');
    unsubscribe();
    store.activate('s2');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('the session shown, told to the core', () => {
  /** Records every `session:show` the store makes, answering each as `answer` says. */
  function recordShows(answer: (key: string) => Promise<Record<string, never>>) {
    const shows: string[] = [];
    core.answers['session:show'] = ({ key }) => {
      shows.push(key);
      return answer(key);
    };
    return shows;
  }

  it('tells the core the session shown after a load, and again each time another is shown', async () => {
    const shows = recordShows(async () => ({}));
    scriptState([summary('s1'), summary('s2')]);
    core.answers['session:getTranscript'] = async () => ({ events: [] });
    await store.load();
    store.activate('s2');
    store.activate('s2');
    // A change that leaves the session shown as it was tells nothing.
    core.emit('session:onDidChange', summary('s1', 'prompting'));
    store.activate('s1');
    expect(shows).toEqual(['s1', 's2', 's1']);
  });

  it('tells a new core again after the link came back', async () => {
    const shows = recordShows(async () => ({}));
    scriptState([summary('s1')]);
    core.answers['session:getTranscript'] = async () => ({ events: [] });
    await store.load();
    await store.reattach();
    expect(shows).toEqual(['s1', 's1']);
  });

  it('tells it again at the next change when the core refused (the session had closed)', async () => {
    const shows = recordShows(async () => {
      if (shows.length === 1) {
        throw new Error('That session is closed');
      }
      return {};
    });
    store.activate('s1');
    // Every promise settled: the refusal was taken in.
    await new Promise((resolve) => setImmediate(resolve));
    core.emit('session:onDidChange', summary('s1'));
    expect(shows).toEqual(['s1', 's1']);
  });
});
