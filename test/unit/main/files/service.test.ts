/** The file service on its own, with a stand-in session: what it shows, asks and answers. */
import type * as acp from '@agentclientprotocol/sdk';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileService } from '../../../../main/core/files/service.js';
import type { Session } from '../../../../main/core/session.js';
import type { PermissionOutcome, TranscriptEvent } from '../../../../preload/shared/contract.js';
import { requestFailure } from '../../../helpers/request-error.js';

let root: string;
let undoDir: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-file-service-')));
  undoDir = await mkdtemp(path.join(tmpdir(), 'airlock-file-service-undo-'));
});
afterEach(() =>
  Promise.all([root, undoDir].map((dir) => rm(dir, { recursive: true, force: true }))),
);

type Asked = { promptKey: string; request: acp.RequestPermissionRequest; signal: AbortSignal };

/** A session in `root` that records what it is told and answers cards with `answer`. */
function standIn(answer: PermissionOutcome = { outcome: 'selected', optionId: 'write' }) {
  const events: TranscriptEvent[] = [];
  const asked: Asked[] = [];
  const session = {
    summary: { cwd: root, agentName: 'Agent' },
    acpSessionId: 's',
    turnId: 7,
    append: (event: TranscriptEvent) => events.push(event),
    requestPermission: async (
      promptKey: string,
      request: acp.RequestPermissionRequest,
      signal: AbortSignal,
    ) => {
      asked.push({ promptKey, request, signal });
      return answer;
    },
  } as unknown as Session;
  return { session, events, asked };
}

function service(session: Session | undefined, askBeforeWrites = false, undoLimitBytes?: number) {
  let prompts = 0;
  return new FileService({
    find: () => session,
    askBeforeWrites: () => askBeforeWrites,
    nextPromptKey: () => `p${prompts++}`,
    tab: () => session!,
    undoDir,
    undoLimitBytes,
  });
}

describe('FileService: reads', () => {
  it('reads a range of lines, and adds no line for a file that is not there', async () => {
    const { session, events } = standIn();
    const files = service(session);
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    const file = path.join(root, 'a.txt');
    expect(await files.read(undefined, { sessionId: 's', path: file, line: 2, limit: 1 })).toEqual({
      content: 'two\n',
    });
    const missing = await requestFailure(
      files.read(undefined, { sessionId: 's', path: path.join(root, 'b.txt') }),
    );
    expect(missing.code).toBe(-32002);
    expect(events).toEqual([]);
  });

  it('shows a refusal in the transcript, without the JSON-RPC prefix, and passes it on', async () => {
    const { session, events } = standIn();
    const error = await requestFailure(
      service(session).read(undefined, { sessionId: 's', path: 'relative.txt' }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'Invalid params: relative.txt is not an absolute path; the protocol requires one',
    );
    expect(events).toEqual([
      {
        type: 'system',
        text: "Airlock refused the agent's request to read a file: relative.txt is not an absolute path; the protocol requires one",
      },
    ]);
  });

  it('answers an internal error, naming the path and the verb, for a failure that is not a refusal', async () => {
    const { session, events } = standIn();
    const broken = {
      ...session,
      append: session.append,
      get summary(): never {
        throw new Error('the session broke');
      },
    } as unknown as Session;
    const error = await requestFailure(
      service(broken).read(undefined, { sessionId: 's', path: '/x/\u0001.txt' }),
    );
    expect(error.code).toBe(-32603);
    expect(error.message).toBe('Internal error: /x/?.txt could not be read');
    expect(events).toEqual([]);
    const throwing = new FileService({
      tab: () => session,
      undoDir,
      find: () => session,
      askBeforeWrites: () => {
        throw new Error('settings broke');
      },
      nextPromptKey: () => 'p',
    });
    const written = await requestFailure(
      throwing.write(undefined, {
        sessionId: 's',
        path: path.join(root, 'a.txt'),
        content: 'x',
      }),
    );
    expect(written.code).toBe(-32603);
    expect(written.message).toBe(
      `Internal error: ${path.join(root, 'a.txt')} could not be written`,
    );
  });

  it('answers "session not found" naming at most 100 characters of the id', async () => {
    const id = 'x'.repeat(150);
    const error = await requestFailure(
      service(undefined).read(undefined, { sessionId: id, path: '/a' }),
    );
    expect(error.code).toBe(-32002);
    expect(error.message).toBe(
      `Session not found: "${'x'.repeat(100)}" is not a session of this agent in Airlock`,
    );
    expect(error.data).toEqual({ sessionId: 'x'.repeat(100) });
  });
});

describe('FileService: writes', () => {
  it('shows each write as its own completed edit, with its diff and where', async () => {
    const { session, events } = standIn();
    const files = service(session);
    const file = path.join(root, 'a.txt');
    expect(await files.write(undefined, { sessionId: 's', path: file, content: 'one\n' })).toEqual(
      {},
    );
    await files.write(undefined, { sessionId: 's', path: file, content: 'two\n' });
    expect(events).toEqual([
      {
        type: 'tool_call',
        toolCallId: 'airlock-write-0',
        fields: {
          title: `Airlock wrote ${file}`,
          kind: 'edit',
          status: 'completed',
          content: [{ type: 'diff', path: file, oldText: null, newText: 'one\n' }],
          locations: [{ path: file, line: null }],
          undo: { state: 'available', writeId: 'w0', turn: 7 },
        },
      },
      {
        type: 'tool_call',
        toolCallId: 'airlock-write-1',
        fields: {
          title: `Airlock wrote ${file}`,
          kind: 'edit',
          status: 'completed',
          content: [{ type: 'diff', path: file, oldText: 'one\n', newText: 'two\n' }],
          locations: [{ path: file, line: null }],
          undo: { state: 'available', writeId: 'w1', turn: 7 },
        },
      },
    ]);
  });

  it('shows no diff for a file that was not text, or one too large to show', async () => {
    const { session, events } = standIn();
    const files = service(session);
    const binary = path.join(root, 'b.bin');
    writeFileSync(binary, Buffer.from([0x61, 0x00]));
    await files.write(undefined, { sessionId: 's', path: binary, content: 'text\n' });
    const limit = 1_000_000;
    const big = path.join(root, 'big.txt');
    // Exactly the limit on either side still shows; one more does not.
    const write = (content: string) =>
      files.write(undefined, { sessionId: 's', path: big, content });
    await write('a'.repeat(limit));
    await write('c');
    await write('b'.repeat(limit + 1));
    await write('c');
    const shown = events.map((event) => (event.type === 'tool_call' ? event.fields.content : []));
    const note = (text: string) => [{ type: 'content', content: { type: 'text', text } }];
    expect(shown).toEqual([
      note('It replaced a file that was not text, or too large to show; no diff is shown.'),
      [{ type: 'diff', path: big, oldText: null, newText: 'a'.repeat(limit) }],
      [{ type: 'diff', path: big, oldText: 'a'.repeat(limit), newText: 'c' }],
      note('The change is too large to show here.'),
      note('The change is too large to show here.'),
    ]);
    expect(readFileSync(big, 'utf8')).toBe('c');
  });

  it('shows a refused write in the transcript and writes nothing', async () => {
    const { session, events } = standIn();
    const outside = path.join(path.dirname(root), 'outside.txt');
    const error = await requestFailure(
      service(session).write(undefined, { sessionId: 's', path: outside, content: 'x' }),
    );
    expect(error.code).toBe(-32602);
    expect(events).toEqual([
      {
        type: 'system',
        text: `Airlock refused the agent's request to write a file: ${outside} is outside the session's folder ${root}`,
      },
    ]);
  });
});

describe('FileService: writes that ask first', () => {
  it('asks on a card with the diff, the file and both choices, then writes', async () => {
    const { session, asked } = standIn();
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'before\n');
    await service(session, true).write(undefined, {
      sessionId: 's',
      path: file,
      content: 'after\n',
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.promptKey).toBe('p0');
    expect(asked[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(asked[0]!.request).toEqual({
      sessionId: 's',
      toolCall: {
        toolCallId: 'airlock-write-0',
        title: `Write ${file}`,
        kind: 'edit',
        status: 'pending',
        content: [{ type: 'diff', path: file, oldText: 'before\n', newText: 'after\n' }],
        locations: [{ path: file }],
      },
      options: [
        { optionId: 'write', name: 'Write the file', kind: 'allow_once' },
        { optionId: 'skip', name: 'Do not write', kind: 'reject_once' },
      ],
    });
    expect(readFileSync(file, 'utf8')).toBe('after\n');
  });

  it('asks about a new file as one, and about a file that is not text in words', async () => {
    const { session, asked } = standIn();
    const files = service(session, true);
    const fresh = path.join(root, 'new.txt');
    await files.write(undefined, { sessionId: 's', path: fresh, content: 'x' });
    const binary = path.join(root, 'b.bin');
    writeFileSync(binary, Buffer.from([0x00]));
    await files.write(undefined, { sessionId: 's', path: binary, content: 'y' });
    // A folder where the file is: it cannot be read, so no diff either (and the write is refused).
    mkdirSync(path.join(root, 'dir'));
    await requestFailure(
      files.write(undefined, { sessionId: 's', path: path.join(root, 'dir'), content: 'z' }),
    );
    expect(asked.map(({ request }) => request.toolCall.content)).toEqual([
      [{ type: 'diff', path: fresh, oldText: null, newText: 'x' }],
      [
        {
          type: 'content',
          content: {
            type: 'text',
            text: 'It replaced a file that was not text, or too large to show; no diff is shown.',
          },
        },
      ],
      [
        {
          type: 'content',
          content: {
            type: 'text',
            text: 'It replaced a file that was not text, or too large to show; no diff is shown.',
          },
        },
      ],
    ]);
  });

  it.each([
    [{ outcome: 'selected', optionId: 'skip' } as const, 'declined'],
    [{ outcome: 'cancelled' } as const, 'did not answer'],
  ])('writes nothing when the answer is %o, and says the user %s', async (answer, said) => {
    const { session, events } = standIn(answer);
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'before\n');
    const error = await requestFailure(
      service(session, true).write(undefined, { sessionId: 's', path: file, content: 'after\n' }),
    );
    expect(error.code).toBe(-32600);
    expect(error.message).toBe(`${file} was not written: the user ${said}`);
    expect(error.data).toEqual({ path: file });
    expect(events).toEqual([
      { type: 'tool_call_update', toolCallId: 'airlock-write-0', fields: { status: 'failed' } },
    ]);
    expect(readFileSync(file, 'utf8')).toBe('before\n');
  });

  it('passes on the signal of the request it asks for', async () => {
    const { session, asked } = standIn();
    const abort = new AbortController();
    await service(session, true).write(
      undefined,
      { sessionId: 's', path: path.join(root, 'a.txt'), content: 'x' },
      abort.signal,
    );
    expect(asked[0]!.signal).toBe(abort.signal);
  });
});

describe('FileService: undoing writes', () => {
  const write = (files: FileService, name: string, content: string) =>
    files.write(undefined, { sessionId: 's', path: path.join(root, name), content });
  const undoOf = (events: TranscriptEvent[]) =>
    events.flatMap((event) =>
      event.type === 'tool_call' || event.type === 'tool_call_update'
        ? [{ id: event.toolCallId, undo: event.fields.undo }]
        : [],
    );

  it('undoes a write, marks its row undone, and refuses it a second time', async () => {
    const { session, events } = standIn();
    const files = service(session);
    writeFileSync(path.join(root, 'notes.txt'), 'hello world\n');
    await write(files, 'notes.txt', 'hello notes\n');

    await expect(files.handlers['files:undoWrite']({ key: 's0', writeId: 'w0' })).resolves.toEqual({
      outcome: 'undone',
    });
    expect(readFileSync(path.join(root, 'notes.txt'), 'utf8')).toBe('hello world\n');
    expect(undoOf(events)).toEqual([
      { id: 'airlock-write-0', undo: { state: 'available', writeId: 'w0', turn: 7 } },
      { id: 'airlock-write-0', undo: { state: 'undone', writeId: 'w0' } },
    ]);
    await expect(
      files.handlers['files:undoWrite']({ key: 's0', writeId: 'w0' }),
    ).resolves.toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/no longer keeps/),
    });
  });

  it('shows the three versions of a file changed since, and restores it when forced', async () => {
    const { session } = standIn();
    const files = service(session);
    const file = path.join(root, 'notes.txt');
    writeFileSync(file, 'hello world\n');
    await write(files, 'notes.txt', 'hello notes\n');
    writeFileSync(file, 'my edit\n');

    await expect(files.handlers['files:undoWrite']({ key: 's0', writeId: 'w0' })).resolves.toEqual({
      outcome: 'changed',
      path: file,
      before: { kind: 'text', text: 'hello world\n' },
      agent: { kind: 'text', text: 'hello notes\n' },
      now: { kind: 'text', text: 'my edit\n' },
    });
    expect(readFileSync(file, 'utf8')).toBe('my edit\n');
    await files.handlers['files:undoWrite']({ key: 's0', writeId: 'w0', force: true });
    expect(readFileSync(file, 'utf8')).toBe('hello world\n');
  });

  it("undoes a turn's writes latest first, leaving a file changed since", async () => {
    const { session, events } = standIn();
    const files = service(session);
    writeFileSync(path.join(root, 'a.txt'), 'a0\n');
    await write(files, 'a.txt', 'a1\n');
    await write(files, 'a.txt', 'a2\n');
    await write(files, 'new.txt', 'new\n');
    await write(files, 'b.txt', 'b1\n');
    writeFileSync(path.join(root, 'b.txt'), 'mine\n');
    (session as { turnId: number }).turnId = 8;
    await write(files, 'later.txt', 'later\n');

    await expect(files.handlers['files:undoTurn']({ key: 's0', turn: 7 })).resolves.toEqual({
      undone: 3,
      changed: [path.join(root, 'b.txt')],
      refused: [],
    });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(existsSync(path.join(root, 'new.txt'))).toBe(false);
    expect(readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(path.join(root, 'later.txt'), 'utf8')).toBe('later\n');
    expect(undoOf(events).filter((row) => row.undo?.state === 'undone')).toHaveLength(3);
  });

  it('says when it drops an old copy to stay within its size, and marks that row', async () => {
    const { session, events } = standIn();
    const files = service(session, false, 30);
    await write(files, 'a.txt', 'x'.repeat(20));
    await write(files, 'b.txt', 'y'.repeat(20));
    await write(files, 'c.txt', 'z'.repeat(40));
    const rows = undoOf(events);
    expect(rows.at(2)).toEqual({
      id: 'airlock-write-0',
      undo: { state: 'unavailable', reason: expect.stringMatching(/^No longer kept: /) },
    });
    expect(rows.at(-1)).toEqual({
      id: 'airlock-write-2',
      undo: {
        state: 'unavailable',
        reason: expect.stringMatching(/^This write cannot be undone: the file and its new text/),
      },
    });
    expect(events.filter((event) => event.type === 'system')).toEqual([
      {
        type: 'system',
        text: expect.stringMatching(
          new RegExp(
            `^The write of ${path.join(root, 'a.txt')} can no longer be undone: Airlock keeps`,
          ),
        ),
      },
    ]);
    expect(readFileSync(path.join(root, 'c.txt'), 'utf8')).toBe('z'.repeat(40));
  });

  it('names at most three of the writes one keep drops', async () => {
    const { session, events } = standIn();
    const files = service(session, false, 30);
    for (const name of ['a', 'b', 'c', 'd']) {
      await write(files, name, 'x'.repeat(5));
    }
    await write(files, 'e', 'x'.repeat(28));
    await write(files, 'f', 'x'.repeat(5));
    expect(events.flatMap((event) => (event.type === 'system' ? [event.text] : []))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^4 writes of ${['a', 'b', 'c'].map((name) => path.join(root, name)).join(', ')} and others can no longer be undone: `,
        ),
      ),
      expect.stringMatching(new RegExp(`^The write of ${path.join(root, 'e')} can no longer`)),
    ]);
  });

  it('undoes a write in the same agent session after the app restarted, in a new tab', async () => {
    const notes = path.join(root, 'notes.txt');
    const first = standIn();
    Object.assign(first.session, { key: 'tab-1' });
    await write(service(first.session), 'notes.txt', 'agent\n');

    // Another agent's session of the same id has a store of its own.
    const other = standIn();
    Object.assign(other.session, { key: 'tab-2', summary: { cwd: root, agentName: 'Other' } });
    await expect(
      service(other.session).handlers['files:undoWrite']({ key: 'tab-2', writeId: 'w0' }),
    ).resolves.toMatchObject({ outcome: 'refused' });

    const next = standIn();
    Object.assign(next.session, { key: 'tab-3' });
    await expect(
      service(next.session).handlers['files:undoWrite']({ key: 'tab-3', writeId: 'w0' }),
    ).resolves.toEqual({ outcome: 'undone' });
    expect(existsSync(notes)).toBe(false);
    // The new tab shows no row of that write to mark.
    expect(next.events).toEqual([]);
  });

  it('refuses undos from a damaged store, and says when a write starts it afresh', async () => {
    await write(service(standIn().session), 'a.txt', 'a\n');
    const [store] = readdirSync(undoDir);
    writeFileSync(path.join(undoDir, store!, 'journal.jsonl'), 'not json\n');

    const { session, events } = standIn();
    const files = service(session);
    const damaged =
      "The write was not undone: this session's undo copies are missing or damaged, so nothing was changed";
    await expect(files.handlers['files:undoWrite']({ key: 's0', writeId: 'w0' })).resolves.toEqual({
      outcome: 'refused',
      reason: damaged,
    });
    await expect(files.handlers['files:undoTurn']({ key: 's0', turn: 7 })).resolves.toEqual({
      undone: 0,
      changed: [],
      refused: [damaged],
    });
    await write(files, 'b.txt', 'b\n');
    expect(events.filter((event) => event.type === 'system')).toEqual([
      {
        type: 'system',
        text: "Airlock found this session's undo copies damaged and started them afresh: earlier writes can no longer be undone.",
      },
    ]);
  });
});
