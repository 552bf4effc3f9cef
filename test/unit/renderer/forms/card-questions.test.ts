import { describe, expect, it } from 'vitest';
import type { FormField, FormModel } from '../../../../preload/shared/form-model.js';
import {
  cardUiSchema,
  companionName,
  describedBy,
  fieldGroups,
  fieldMetas,
} from '../../../../renderer/src/forms/card-form.js';

const choice = (name: string, extra: Partial<FormField> = {}): FormField =>
  ({
    name,
    required: false,
    kind: 'single-select',
    titled: true,
    options: [
      { value: 'a', title: 'A', description: 'first' },
      { value: 'b', title: 'B' },
    ],
    ...extra,
  }) as FormField;
const text = (name: string, extra: Partial<FormField> = {}): FormField =>
  ({ name, required: false, kind: 'string', ...extra }) as FormField;
const other = (name: string, of: string, title = 'Other'): FormField =>
  text(name, { title, presentation: { companion: { of, kind: 'other', question: `Q ${of}?` } } });

describe('how the card groups questions', () => {
  it('puts each "Other" right after its question, wherever the agent put it, and numbers questions', () => {
    const model: FormModel = {
      fields: [
        other('x_custom', 'x'),
        choice('x', { presentation: { question: { number: 1, of: 2 } } }),
        text('alone'),
        choice('y', { presentation: { question: { number: 2, of: 2 } } }),
        other('y_custom', 'y'),
      ],
    };
    expect(fieldGroups(model)).toEqual([
      { question: { number: 1, of: 2 }, names: ['x', 'x_custom'] },
      { names: ['alone'] },
      { question: { number: 2, of: 2 }, names: ['y', 'y_custom'] },
    ]);
  });

  it('leaves a companion of no field where it is, alone', () => {
    const model: FormModel = { fields: [other('stray', 'nowhere'), text('b')] };
    expect(fieldGroups(model)).toEqual([{ names: ['stray'] }, { names: ['b'] }]);
  });
});

describe('how a field is shown from its hints', () => {
  it('names an "Other" after its question, keeping the label it shows', () => {
    expect(companionName('Other', 'Which database?')).toBe('Other answer to: Which database?');
    expect(companionName('Additional answer or note', 'Which database?')).toBe(
      'Additional answer or note, for: Which database?',
    );
    const metas = fieldMetas({ fields: [choice('x'), other('x_custom', 'x')] }, 'e1');
    expect(metas.get('x_custom')).toMatchObject({
      label: 'Other',
      accessibleName: 'Other answer to: Q x?',
    });
    expect(metas.get('x')?.accessibleName).toBeUndefined();
  });

  it('masks a text answer the agent marks secret, and says so under it', () => {
    const metas = fieldMetas(
      {
        fields: [
          text('note', { presentation: { secret: true } }),
          text('email', { format: 'email', presentation: { secret: true } }),
          choice('pick', { presentation: { secret: true } }),
          text('plain'),
        ],
      },
      'e1',
    );
    expect(metas.get('note')).toMatchObject({ secret: true, masked: true });
    expect(metas.get('note')?.secretNote).toContain('the agent marks this answer as secret');
    expect(describedBy(metas.get('note')!, false)).toBe('e1-field-0-secret');
    // Only free text is masked; the card still warns about every secret field.
    expect(metas.get('email')).toMatchObject({ secret: true, masked: false });
    expect(metas.get('pick')).toMatchObject({ secret: true, masked: false });
    expect(metas.get('pick')?.secretNote).toBeUndefined();
    expect(metas.get('plain')).toMatchObject({ secret: false, masked: false });
  });

  it('draws a single choice shown as a list with radio rows, and any other as a select', () => {
    const model: FormModel = {
      fields: [choice('rows', { presentation: { choices: 'list' } }), choice('menu')],
    };
    const metas = fieldMetas(model, 'e1');
    const ui = cardUiSchema(model, metas, () => null);
    expect(metas.get('rows')?.list).toBe(true);
    expect(ui.rows['ui:widget']).toBe('ChoiceListWidget');
    expect(metas.get('menu')?.list).toBe(false);
    expect(ui.menu['ui:widget']).toBe('select');
  });
});
