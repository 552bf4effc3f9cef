import { describe, expect, it } from 'vitest';
import {
  mergeToolFields,
  permissionAnswer,
  permissionEvents,
  permissionOptions,
  ToolCallLog,
} from '../../../../main/core/tool-calls.js';
import { revealInvisible } from '../../../../main/core/reveal.js';
import {
  commandOf,
  rawInputText,
  shellQuote,
  toolCallFields,
} from '../../../../main/core/updates.js';
import { DEMO_FILE, TEST_OUTPUT } from '../../../../main/demo-agent/tools.js';
import {
  MAX_RAW_INPUT_CHARS,
  TranscriptEvent,
  type PermissionOptionView,
} from '../../../../preload/shared/contract.js';
import { answerPermission, useCore } from '../../../helpers/core-harness.js';

describe('commandOf', () => {
  it('reads a command string and its folder', () => {
    expect(commandOf({ command: 'rm -rf build', cwd: '/work' })).toEqual({
      line: 'rm -rf build',
      cwd: '/work',
    });
    expect(commandOf({ cmd: 'ls', workdir: '/tmp' })).toEqual({ line: 'ls', cwd: '/tmp' });
  });

  it('quotes an argument list as a shell would read it', () => {
    expect(commandOf({ command: ['bash', '-lc', "echo 'hi' && ls"] })).toEqual({
      line: `bash -lc 'echo '\\''hi'\\'' && ls'`,
      cwd: undefined,
    });
    // ACP's own terminal shape: the program, its arguments apart.
    expect(commandOf({ command: 'git', args: ['commit', '-m', 'a fix'] })?.line).toBe(
      "git commit -m 'a fix'",
    );
    // Arguments that are not all strings are not guessed at: the program alone.
    expect(commandOf({ command: 'git', args: ['log', 3] })?.line).toBe('git');
    expect(commandOf({ command: 'git', args: 'log' })?.line).toBe('git');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('a/b.c:d=e')).toBe('a/b.c:d=e');
  });

  it('finds no command where the raw input names none', () => {
    for (const input of [
      null,
      'ls',
      ['ls'],
      {},
      { command: 3 },
      { command: [] },
      { command: ['ls', 3] },
      { command: '   ' },
    ]) {
      expect(commandOf(input)).toBeUndefined();
    }
  });

  it('gives no folder for an empty one', () => {
    expect(commandOf({ command: 'ls', cwd: '' })).toEqual({ line: 'ls', cwd: undefined });
  });

  it('shows the characters that would hide what a command does', () => {
    // A right-to-left override makes `rm -rf ~ #` read otherwise on screen.
    expect(commandOf({ command: 'echo safe\u202e# ~ fr- mr' })?.line).toBe(
      'echo safe⟨U+202E⟩# ~ fr- mr',
    );
    expect(revealInvisible('a\u200bb\u0007c\td\ne')).toBe('a⟨U+200B⟩b⟨U+0007⟩c\td\ne');
  });
});

describe('rawInputText', () => {
  it('writes the raw input as indented JSON, clipped to the contract bound', () => {
    expect(rawInputText({ path: 'a.txt' })).toBe('{\n  "path": "a.txt"\n}');
    const long = rawInputText({ text: 'x'.repeat(100_000) });
    expect(long).toHaveLength(MAX_RAW_INPUT_CHARS);
    expect(long?.endsWith('…')).toBe(true);
  });

  it('leaves out raw input that says nothing', () => {
    for (const input of [{}, [], null, undefined]) {
      expect(rawInputText(input)).toBeUndefined();
    }
  });
});

describe('toolCallFields', () => {
  it('maps content, kind, title, locations and raw input within the contract', () => {
    const fields = toolCallFields({
      title: 'Run\u202e tests',
      kind: 'execute',
      locations: [{ path: '/w' }],
      rawInput: { command: 'npm test', cwd: '/w' },
      content: [{ type: 'diff', path: '/w/a', oldText: null, newText: 'x\u2066y' }],
    });
    expect(fields).toEqual({
      title: 'Run⟨U+202E⟩ tests',
      kind: 'execute',
      locations: [{ path: '/w', line: null }],
      command: { line: 'npm test', cwd: '/w' },
      rawInput: '{\n  "command": "npm test",\n  "cwd": "/w"\n}',
      content: [{ type: 'diff', path: '/w/a', oldText: null, newText: 'x⟨U+2066⟩y' }],
    });
    const event = { type: 'tool_call_update', toolCallId: 'c', fields };
    expect(TranscriptEvent.safeParse(event).success).toBe(true);
  });

  it('carries only the fields an update sets: a later update never blanks an earlier one', () => {
    expect(Object.keys(toolCallFields({ title: 'Edit' }))).toEqual(['title']);
    // Raw input with no command, and raw input that says nothing.
    expect(Object.keys(toolCallFields({ rawInput: { path: 'a.txt' } }))).toEqual(['rawInput']);
    expect(Object.keys(toolCallFields({ status: 'completed', rawInput: {} }))).toEqual(['status']);
  });

  it('keeps at most 1000 content entries, locations and command arguments', () => {
    const many = Array.from({ length: 1001 }, () => 'a');
    const fields = toolCallFields({
      content: many.map((text) => ({ type: 'content', content: { type: 'text', text } })),
      locations: many.map((path) => ({ path })),
    });
    expect(fields.content).toHaveLength(1000);
    expect(fields.locations).toHaveLength(1000);
    expect(commandOf({ command: many })?.line).toBe(many.slice(1).join(' '));
    expect(commandOf({ command: 'echo', args: many })?.line).toBe(
      ['echo', ...many.slice(1)].join(' '),
    );
  });
});

describe('ToolCallLog', () => {
  it('merges a call’s updates and forgets the least recently updated calls past its limit', () => {
    const log = new ToolCallLog(2);
    log.record({ type: 'tool_call', toolCallId: 'a', fields: { title: 'A', kind: 'edit' } });
    log.record({ type: 'tool_call_update', toolCallId: 'a', fields: { status: 'completed' } });
    expect(log.get('a')).toEqual({ title: 'A', kind: 'edit', status: 'completed' });
    log.record({ type: 'tool_call', toolCallId: 'b', fields: {} });
    log.record({ type: 'tool_call_update', toolCallId: 'a', fields: { title: 'A2' } });
    log.record({ type: 'tool_call', toolCallId: 'c', fields: {} });
    expect(log.get('b')).toBeUndefined();
    expect(log.get('a')?.title).toBe('A2');
    log.record({ type: 'prompt', text: 'ignored' });
    expect(log.get('c')).toEqual({});
  });

  it('keeps a field an update leaves out', () => {
    expect(
      mergeToolFields({ title: 'T', kind: 'read' }, { title: undefined, kind: 'edit' }),
    ).toEqual({ title: 'T', kind: 'edit' });
  });
});

describe('permissionEvents', () => {
  it('shows on the card what earlier updates said of the call, under what the request says', () => {
    const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
    const { update, card } = permissionEvents(
      'p1',
      agent,
      {
        sessionId: 's',
        toolCall: { toolCallId: 'c1', rawInput: { command: 'make' } },
        options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
      },
      { title: 'Build', kind: 'execute', status: 'pending', permission: 'rejected' },
    );
    expect(update).toEqual({
      type: 'tool_call_update',
      toolCallId: 'c1',
      fields: {
        command: { line: 'make', cwd: undefined },
        rawInput: '{\n  "command": "make"\n}',
        permission: 'asked',
      },
    });
    expect(card).toEqual({
      type: 'permission',
      promptKey: 'p1',
      agent,
      toolCallId: 'c1',
      title: 'Build',
      options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
      tool: {
        title: 'Build',
        kind: 'execute',
        command: { line: 'make', cwd: undefined },
        rawInput: '{\n  "command": "make"\n}',
      },
    });
    expect(TranscriptEvent.safeParse(card).success).toBe(true);
  });
});

describe('permissionAnswer', () => {
  const options: PermissionOptionView[] = [
    { optionId: 'a', name: 'Allow', kind: 'allow_once' },
    { optionId: 'aa', name: 'Always', kind: 'allow_always' },
    { optionId: 'r', name: 'Reject', kind: 'reject_once' },
    { optionId: 'rr', name: 'Never', kind: 'reject_always' },
  ];
  it('says what the chosen option means for the tool call', () => {
    const pick = (optionId: string) => permissionAnswer({ outcome: 'selected', optionId }, options);
    expect(['a', 'aa', 'r', 'rr', 'other'].map(pick)).toEqual([
      'allowed',
      'allowed',
      'rejected',
      'rejected',
      'cancelled',
    ]);
    expect(permissionAnswer({ outcome: 'cancelled' }, options)).toBe('cancelled');
  });
});

describe('permissionOptions', () => {
  it('offers at most 100 options, each id cut (not clipped) to 10,000 characters', () => {
    const options = Array.from({ length: 101 }, (_unused, n) => ({
      optionId: n === 0 ? 'i'.repeat(20_000) : `option ${n}`,
      name: `Option ${n}`,
      kind: 'allow_once' as const,
    }));
    const offered = permissionOptions(options);
    expect(offered).toHaveLength(100);
    expect(offered[0]!.optionId).toBe('i'.repeat(10_000));
    expect(offered.at(-1)).toEqual({
      optionId: 'option 99',
      name: 'Option 99',
      kind: 'allow_once',
    });
  });
});

describe('a permission request from the demo agent', () => {
  const { start } = useCore();

  /** A ready demo tab, prompted with `text`, and the permission card its turn shows. */
  async function cardFor(text: string) {
    const run = await start();
    const key = await run.ready();
    await run.core.invoke('session:prompt', { key, text });
    const card = await run.recorder.event(key, 'permission');
    /** Picks `optionId` on the card and waits for the turn to end. */
    const pick = async (optionId: string) => {
      await answerPermission(run.core, key, card, { outcome: 'selected', optionId });
      await run.recorder.event(key, 'turn_end');
    };
    return { ...run, key, card, pick };
  }

  it('shows the edit’s diff, paths and raw input on the card, and its answer on the tool call', async () => {
    const { core, recorder, key, card, pick } = await cardFor('/permission');
    expect(card.tool).toMatchObject({
      title: 'Edit README.md',
      kind: 'edit',
      locations: [{ path: DEMO_FILE, line: 3 }],
      content: [
        {
          type: 'diff',
          path: DEMO_FILE,
          oldText: expect.stringContaining('Hello.\n'),
          newText: expect.stringContaining('Hello from the Airlock demo agent.\n'),
        },
      ],
      rawInput: expect.stringContaining('"old_string": "Hello."'),
    });
    const asked = recorder
      .transcript(key)
      .find((event) => event.type === 'tool_call_update' && event.fields.permission === 'asked');
    expect(asked).toMatchObject({ toolCallId: card.toolCallId });

    // An answer the card does not offer is refused, and the card still waits.
    await expect(
      answerPermission(core, key, card, { outcome: 'selected', optionId: 'made-up' }),
    ).rejects.toThrow('not one of the answers the agent offered');
    await pick('reject-once');
    expect(recorder.transcript(key)).toContainEqual({
      type: 'tool_call_update',
      toolCallId: card.toolCallId,
      fields: { permission: 'rejected' },
    });
    expect(recorder.dropped).toEqual([]);
  });

  it('shows the command a tool runs, with its folder', async () => {
    const { recorder, key, dir, card, pick } = await cardFor('/permission-run');
    expect(card.tool).toMatchObject({
      title: 'Run the tests',
      kind: 'execute',
      command: { line: "bash -lc 'npm test -- --reporter=dot'", cwd: dir },
    });
    await pick('allow-once');
    expect(recorder.transcript(key)).toContainEqual({
      type: 'tool_call_update',
      toolCallId: card.toolCallId,
      fields: { permission: 'allowed' },
    });
    expect(recorder.transcript(key)).toContainEqual({
      type: 'tool_call_update',
      toolCallId: card.toolCallId,
      fields: {
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: TEST_OUTPUT } }],
      },
    });
  });

  it('does not ask again once the user chose “Always allow” for that kind of tool', async () => {
    const { core, recorder, key, pick } = await cardFor('/permission');
    await pick('allow-always');
    expect(recorder.text(key)).toContain('I will not ask again before edits in this session.');

    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: '/permission' });
    await recorder.event(key, 'turn_end', from);
    const second = recorder.transcript(key).slice(from);
    expect(second.some((event) => event.type === 'permission')).toBe(false);
    expect(recorder.text(key)).toContain(
      'You chose “Always allow” for edits earlier in this session, so I did not ask again.',
    );

    // Commands are another kind of tool: still asked.
    await core.invoke('session:prompt', { key, text: '/permission-run' });
    const run = await recorder.event(key, 'permission', from);
    expect(run.tool?.kind).toBe('execute');
  });
});
