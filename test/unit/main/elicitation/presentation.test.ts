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
