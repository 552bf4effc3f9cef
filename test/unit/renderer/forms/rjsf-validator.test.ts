import {
  createSchemaUtils,
  getDefaultFormState,
  type RJSFSchema,
  type RJSFValidationError,
} from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import type { FormModel } from '../../../../preload/shared/form-model.js';
import { createRjsfForm } from '../../../../renderer/src/forms/rjsf-validator.js';

const model: FormModel = {
  fields: [
    { name: 'name', required: true, kind: 'string', minLength: 3, default: '' },
    { name: 'count', required: false, kind: 'integer', default: 0 },
    { name: 'force', required: false, kind: 'boolean', default: false },
    {
      name: 'level',
      required: false,
      kind: 'single-select',
      titled: true,
      options: [
        { value: 'low', title: 'Low' },
        { value: 'high', title: 'High' },
      ],
      default: 'high',
    },
    {
      name: 'tags',
      required: false,
      kind: 'multi-select',
      titled: false,
      options: [
        { value: 'a', title: 'a' },
        { value: 'b', title: 'b' },
      ],
      maxItems: 1,
    },
  ],
};

describe('createRjsfForm: validateFormData', () => {
  const { schema, validator } = createRjsfForm(model);

  it('reports validateForm messages per field, as RJSF error list and error schema', () => {
    const result = validator.validateFormData({ name: 'ab', tags: ['a', 'b'] }, schema);
    expect(result.errorSchema).toEqual({
      name: { __errors: ['Enter at least 3 characters'] },
      tags: { __errors: ['Choose at most 1'] },
    });
    expect(result.errors).toEqual([
      {
        property: '.name',
        message: 'Enter at least 3 characters',
        stack: '.name Enter at least 3 characters',
      },
      { property: '.tags', message: 'Choose at most 1', stack: '.tags Choose at most 1' },
    ]);
  });

  it('reports nothing for a valid form', () => {
    expect(validator.validateFormData({ name: 'abc' }, schema)).toEqual({
      errors: [],
      errorSchema: {},
    });
  });

  it('puts form-level messages at the root, with those of a field named __errors', () => {
    const odd = createRjsfForm({
      fields: [
        { name: '__errors', required: true, kind: 'string' },
        { name: 'u', required: true, kind: 'unsupported', reason: 'r' },
      ],
    });
    expect(odd.validator.validateFormData({}, odd.schema).errorSchema).toEqual({
      u: { __errors: ['This field is required'] },
      __errors: [
        'This form needs an answer Airlock cannot collect: decline or cancel it instead',
        'This field is required',
      ],
    });
  });

  it('applies transformErrors before building the error schema', () => {
    const transform = (errors: RJSFValidationError[]) =>
      errors.map((error) => ({ ...error, message: `! ${error.message}` }));
    const result = validator.validateFormData({ name: 'ab' }, schema, undefined, transform);
    expect(result.errorSchema).toEqual({ name: { __errors: ['! Enter at least 3 characters'] } });
  });

  it('merges customValidate errors', () => {
    const result = validator.validateFormData({ name: 'abc' }, schema, (_data, errors) => {
      errors.name?.addError('Taken');
      return errors;
    });
    // RJSF's own unwrapErrorHandler leaves an empty root list.
    expect(result.errorSchema).toEqual({ __errors: [], name: { __errors: ['Taken'] } });
    expect(result.errors.map((error) => error.message)).toEqual(['Taken']);
  });
});

describe('createRjsfForm: isValid and rawValidation', () => {
  const { schema, validator } = createRjsfForm(model);
  const properties = schema.properties as Record<string, RJSFSchema>;

  it('answers for the form schema', () => {
    expect(validator.isValid(schema, { name: 'abc' }, schema)).toBe(true);
    expect(validator.isValid(schema, { name: 'ab' }, schema)).toBe(false);
  });

  it('answers for an option by its const', () => {
    expect(validator.isValid({ const: 'low', title: 'Low' }, 'low', schema)).toBe(true);
    expect(validator.isValid({ const: 'low', title: 'Low' }, 'high', schema)).toBe(false);
  });

  it('answers for a field schema as if the field were optional', () => {
    expect(validator.isValid(properties.name!, undefined, schema)).toBe(true);
    expect(validator.isValid(properties.name!, 'ab', schema)).toBe(false);
    expect(validator.isValid(properties.tags!, ['a'], schema)).toBe(true);
  });

  it('says false for a schema it was not made for', () => {
    expect(validator.isValid({ type: 'string' }, 'x', schema)).toBe(false);
  });

  it('validates raw data only against its own schema', () => {
    expect(validator.rawValidation(schema, { name: 'abc' })).toEqual({ errors: [] });
    expect(validator.rawValidation({ type: 'string' }, 'x').validationError?.message).toBe(
      'This validator knows only its own form schema.',
    );
  });
});

describe('createRjsfForm: works with RJSF schema utilities', () => {
  const { schema, validator } = createRjsfForm(model);

  it('pre-fills the defaults, falsy ones too, and the titled choice', () => {
    expect(getDefaultFormState(validator, schema)).toEqual({
      name: '',
      count: 0,
      force: false,
      level: 'high',
    });
  });

  it('draws the selects as selects and the multi-select as checkboxes', () => {
    const utils = createSchemaUtils(validator, schema);
    const properties = schema.properties as Record<string, RJSFSchema>;
    expect(utils.isSelect(properties.level!)).toBe(true);
    expect(utils.isMultiSelect(properties.tags!)).toBe(true);
  });
});
