import { describe, expect, it } from 'vitest';
import { normaliseFormSchema } from '../../../../main/core/elicitation/form-schema.js';
import {
  MAX_AUTO_RESOLUTION_MS,
  presentForm,
} from '../../../../main/core/elicitation/presentation.js';
import { FormModel } from '../../../../preload/shared/form-model.js';
import { realForms } from '../../../fixtures/real-elicitations.js';

const NOW = 1_800_000_000_000;

/** The model a recorded question becomes, with how to show it. */
function shown(file: string, change: (params: Record<string, unknown>) => void = () => {}) {
  const recorded = realForms().find((each) => each.file === file)!;
  const params = structuredClone(recorded.params) as Record<string, unknown> & {
    requestedSchema: unknown;
  };
  change(params);
  const normalised = normaliseFormSchema(params.requestedSchema);
  if (!normalised.ok) {
    throw new Error(normalised.reason);
  }
  const model = presentForm(normalised.model, params.requestedSchema, {
    message: String(params.message),
    meta: params._meta,
    now: NOW,
  });
  // It crosses IPC: it must parse as the contract's model, hints and all.
  expect(FormModel.parse(model)).toEqual(model);
  return model;
}

const field = (model: FormModel, name: string) => model.fields.find((each) => each.name === name)!;
/** The recorded schema's property `name`, to change in a test. */
const property = (params: Record<string, unknown>, name: string) =>
  (params.requestedSchema as { properties: Record<string, Record<string, unknown>> }).properties[
    name
  ]!;

describe("Claude Agent's AskUserQuestion", () => {
  it('numbers two questions and binds each "Other" to its question, named by the question asked', () => {
    const model = shown('claude-ask-multi.json');
    expect(field(model, 'question_0').presentation).toEqual({
      question: { number: 1, of: 2 },
      choices: 'list',
    });
    expect(field(model, 'question_0_custom').presentation).toEqual({
      companion: {
        of: 'question_0',
        kind: 'other',
        question: 'Which database should the app use?',
      },
    });
    expect(field(model, 'question_1').presentation).toEqual({ question: { number: 2, of: 2 } });
    expect(field(model, 'question_1_custom').presentation?.companion).toEqual({
      of: 'question_1',
      kind: 'other',
      question: 'Which checks should run before a commit?',
    });
  });

  it('does not number a single question, and names its "Other" after the message that asks it', () => {
    const model = shown('claude-ask.json');
    expect(field(model, 'question_0').presentation).toEqual({ choices: 'list' });
    expect(field(model, 'question_0_custom').presentation?.companion?.question).toBe(
      'Which database should the app use?',
    );
  });

  it("carries an option's preview from its _meta as text, and ignores other _meta keys", () => {
    const model = shown('claude-ask.json', (params) => {
      const options = property(params, 'question_0').oneOf as Record<string, unknown>[];
      options[0]!._meta = {
        '_claude/askUserQuestionOption': { preview: '<b>postgres://</b>' },
        'vendor/unknown': { preview: 'nothing' },
      };
      options[1]!._meta = { '_claude/askUserQuestionOption': { preview: 42 } };
    });
    const question = field(model, 'question_0');
    expect(question.kind === 'single-select' && question.options).toEqual([
      {
        value: 'PostgreSQL',
        title: 'PostgreSQL',
        description: 'A relational server',
        preview: '<b>postgres://</b>',
      },
      { value: 'SQLite', title: 'SQLite', description: 'A single file, embedded' },
    ]);
  });

  it('cuts a long preview, so it stays within the model', () => {
    const model = shown('claude-ask.json', (params) => {
      const options = property(params, 'question_0').oneOf as Record<string, unknown>[];
      options[0]!._meta = { '_claude/askUserQuestionOption': { preview: 'x'.repeat(9_000) } };
    });
    const question = field(model, 'question_0');
    const preview = question.kind === 'single-select' ? question.options[0]!.preview : undefined;
    expect(preview).toHaveLength(4_000);
    expect(preview?.endsWith('…')).toBe(true);
  });

  it('binds no "Other" to a field that is not a choice', () => {
    const model = shown('claude-ask.json', (params) => {
      delete property(params, 'question_0').oneOf;
    });
    expect(field(model, 'question_0_custom').presentation).toBeUndefined();
    expect(field(model, 'question_0').presentation).toBeUndefined();
  });
});

describe("Codex's request_user_input", () => {
  it('binds the note to its question by questionId, named by the question (its title)', () => {
    const model = shown('codex-rui-plan.json');
    expect(field(model, 'database').presentation).toEqual({ choices: 'list' });
    expect(field(model, 'database_note').presentation).toEqual({
      companion: { of: 'database', kind: 'note', question: 'Which database should the app use?' },
    });
    // autoResolutionMs is null: nothing counts down.
    expect(model.presentation).toBeUndefined();
  });

  it('marks a secret answer, and counts down to when Codex resolves the question itself', () => {
    const model = shown('codex-rui-plan.json', (params) => {
      params._meta = { codex: { autoResolutionMs: 90_000 } };
      for (const name of ['database', 'database_note']) {
        (property(params, name)._meta as { codex: Record<string, unknown> }).codex.isSecret = true;
      }
    });
    expect(model.presentation).toEqual({ autoResolvesAt: NOW + 90_000 });
    expect(field(model, 'database').presentation?.secret).toBe(true);
    expect(field(model, 'database_note').presentation?.secret).toBe(true);
  });

  it.each([
    ['a string', '90000'],
    ['a negative wait', -1],
    ['a wait past a day', MAX_AUTO_RESOLUTION_MS + 1],
    ['infinity as JSON cannot say it', 1e400],
  ])('counts nothing down for %s', (_name, ms) => {
    const model = shown('codex-rui-plan.json', (params) => {
      params._meta = { codex: { autoResolutionMs: ms } };
    });
    expect(model.presentation).toBeUndefined();
  });

  it('numbers several questions, free text ones too, and binds no note to an unknown question', () => {
    const model = shown('codex-rui-plan.json', (params) => {
      const properties = (params.requestedSchema as { properties: Record<string, unknown> })
        .properties;
      properties.name = { type: 'string', title: 'What is the app called?', _meta: { codex: {} } };
      properties.stray_note = {
        type: 'string',
        _meta: { codex: { role: 'user_note', questionId: 'nowhere' } },
      };
    });
    expect(field(model, 'database').presentation?.question).toEqual({ number: 1, of: 2 });
    expect(field(model, 'name').presentation).toEqual({ question: { number: 2, of: 2 } });
    expect(field(model, 'stray_note').presentation).toBeUndefined();
  });

  it('ignores hints of the wrong shape', () => {
    const model = shown('codex-rui-plan.json', (params) => {
      property(params, 'database')._meta = { codex: 'secret' };
      property(params, 'database_note')._meta = { codex: { role: 'user_note', questionId: 7 } };
      params._meta = ['codex'];
    });
    expect(field(model, 'database').presentation).toEqual({ choices: 'list' });
    expect(field(model, 'database_note').presentation).toBeUndefined();
    expect(model.presentation).toBeUndefined();
  });
});

describe('an MCP server form, forwarded', () => {
  it.each(['claude-mcp-form.json', 'codex-mcp-form.json'])(
    '%s: no hints, so it shows as before',
    (file) => {
      const model = shown(file);
      expect(model.fields.map((each) => each.presentation)).toEqual(
        model.fields.map(() => undefined),
      );
      expect(model).toEqual(
        (
          normaliseFormSchema(
            realForms().find((each) => each.file === file)!.params.requestedSchema,
          ) as { model: FormModel }
        ).model,
      );
    },
  );
});

/** The model an arbitrary request becomes. */
function present(properties: Record<string, unknown>, message = 'Which?', meta?: unknown) {
  const raw = { type: 'object', properties };
  const normalised = normaliseFormSchema(raw);
  if (!normalised.ok) {
    throw new Error(normalised.reason);
  }
  return presentForm(normalised.model, raw, { message, meta, now: NOW });
}
const options = (count: number, described = false) =>
  Array.from({ length: count }, (_unused, index) => ({
    const: `o${index}`,
    title: `O${index}`,
    ...(described && index === count - 1 ? { description: 'the last one' } : {}),
  }));

describe('the edges of the hints', () => {
  it('shows a marked question as rows up to twelve options, and any described choice as rows', () => {
    const codex = { _meta: { codex: {} } };
    const model = present({
      twelve: { type: 'string', oneOf: options(12), ...codex },
      thirteen: { type: 'string', oneOf: options(13), ...codex },
      described: { type: 'string', oneOf: options(13, true) },
      plain: { type: 'string', oneOf: options(3) },
    });
    expect(field(model, 'twelve').presentation?.choices).toBe('list');
    expect(field(model, 'thirteen').presentation?.choices).toBeUndefined();
    expect(field(model, 'described').presentation?.choices).toBe('list');
    expect(field(model, 'plain').presentation).toBeUndefined();
  });

  it('counts down from no wait at all, and from a whole day', () => {
    const at = (ms: number) =>
      present({ a: { type: 'string' } }, 'Which?', { codex: { autoResolutionMs: ms } }).presentation
        ?.autoResolvesAt;
    expect(at(0)).toBe(NOW);
    expect(at(MAX_AUTO_RESOLUTION_MS)).toBe(NOW + MAX_AUTO_RESOLUTION_MS);
  });

  it('keeps a preview of exactly the limit whole, and drops a blank one', () => {
    const preview = (text: string) => ({
      const: 'x',
      _meta: { '_claude/askUserQuestionOption': { preview: text } },
    });
    const model = present({
      whole: { type: 'string', oneOf: [preview('y'.repeat(4_000))] },
      blank: { type: 'array', items: { anyOf: [preview('  \n')] } },
    });
    const whole = field(model, 'whole');
    expect(whole.kind === 'single-select' && whole.options[0]!.preview).toBe('y'.repeat(4_000));
    expect(field(model, 'blank')).not.toHaveProperty('options.0.preview');
  });

  it("binds only Claude's exact question_N_custom names, and names by title when there is no description", () => {
    const select = { type: 'string', title: 'Header', oneOf: options(2) };
    const model = present(
      {
        question_10: select,
        question_10_custom: { type: 'string', title: 'Other' },
        question_2: select,
        xquestion_2_custom: { type: 'string' },
        question_2_customx: { type: 'string' },
      },
      '   ',
    );
    expect(field(model, 'question_10_custom').presentation?.companion).toEqual({
      of: 'question_10',
      kind: 'other',
      question: 'Header',
    });
    expect(field(model, 'xquestion_2_custom').presentation).toBeUndefined();
    expect(field(model, 'question_2_customx').presentation).toBeUndefined();
  });

  it('names an "Other" of one of several questions by its own title, never the message', () => {
    const select = { type: 'string', title: 'Header', oneOf: options(2) };
    const model = present(
      {
        question_0: select,
        question_0_custom: { type: 'string', title: 'Other' },
        question_1: select,
        question_1_custom: { type: 'string', title: 'Other' },
      },
      'Please answer the following questions.',
    );
    expect(field(model, 'question_0_custom').presentation?.companion?.question).toBe('Header');
  });
});
