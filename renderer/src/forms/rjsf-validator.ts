/**
 * RJSF's validator interface over Airlock's own form validator, for the elicitation card.
 *
 * RJSF's ajv8 validator compiles schemas with `new Function`, which the renderer's CSP (no
 * `unsafe-eval`) refuses. This adapter generates no code: it answers RJSF from the form model
 * with `validateForm`, the same check main's ajv agrees with. It knows only the one schema it
 * was made for (the model's, from `formModelToJsonSchema`), that schema's fields and its options.
 */
import {
  createErrorHandler,
  deepEquals,
  toErrorList,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type ErrorSchema,
  type RJSFSchema,
  type RJSFValidationError,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import { formModelToJsonSchema, type FormModel } from '../../../preload/shared/form-model.js';
import {
  isFormValid,
  validateField,
  validateForm,
  type FormValues,
} from '../../../preload/shared/form-validator.js';

/**
 * The schema RJSF renders for a model, and the validator that goes with it.
 *
 * The validator keeps RJSF's default data type: RJSF also calls `isValid` with one field's value.
 */
export type RjsfForm = { schema: RJSFSchema; validator: ValidatorType };

// RJSF keeps a node's own messages under this key of its error schema.
const ERRORS_KEY = '__errors';

/**
 * Makes the schema and validator for RJSF from a form model.
 *
 * `validateFormData` reports `validateForm`'s messages per field, and form-level ones at the
 * root; it honours RJSF's `transformErrors` and `customValidate`. `isValid`, which RJSF uses to
 * pick among options and compute defaults, answers for the form's schema, one of its fields'
 * schemas or an option (`const`), and says false for any other schema rather than guess.
 */
export function createRjsfForm(model: FormModel): RjsfForm {
  const schema = formModelToJsonSchema(model) as RJSFSchema;
  const fieldSchemas = model.fields.map(
    (field) => [field, (schema.properties ?? {})[field.name]] as const,
  );

  function errorSchemaOf(values: FormValues | undefined): ErrorSchema<FormValues> {
    const result = validateForm(model, values);
    const root: string[] = [...result.form];
    const entries: [string, unknown][] = [];
    for (const [name, messages] of Object.entries(result.fields)) {
      // A field named like RJSF's own key would break its error schema: report it at the root.
      if (name === ERRORS_KEY) {
        root.push(...messages);
      } else {
        entries.push([name, { [ERRORS_KEY]: messages }]);
      }
    }
    if (root.length > 0) {
      entries.push([ERRORS_KEY, root]);
    }
    return Object.fromEntries(entries) as ErrorSchema<FormValues>;
  }

  const validator: ValidatorType = {
    validateFormData(formData, _schema, customValidate, transformErrors, uiSchema) {
      let errorSchema = errorSchemaOf(formData);
      let errors: RJSFValidationError[] = toErrorList(errorSchema);
      if (transformErrors) {
        errors = transformErrors(errors, uiSchema);
        errorSchema = toErrorSchema(errors);
      }
      const data: ValidationData<FormValues> = { errors, errorSchema };
      if (!customValidate) {
        return data;
      }
      const handler = customValidate(
        formData,
        createErrorHandler(formData ?? {}),
        uiSchema,
        errorSchema,
      );
      return validationDataMerge(data, unwrapErrorHandler(handler));
    },

    isValid(candidate, formData) {
      if (deepEquals(candidate, schema)) {
        return isFormValid(validateForm(model, formData));
      }
      if (typeof candidate === 'object' && candidate !== null && 'const' in candidate) {
        return formData === candidate.const;
      }
      const match = fieldSchemas.find(([, fieldSchema]) => deepEquals(candidate, fieldSchema));
      // As a part of the form, a field is checked as if optional: `required` is the form's.
      return match ? validateField({ ...match[0], required: false }, formData).length === 0 : false;
    },

    rawValidation<Result = RJSFValidationError>(candidate: RJSFSchema, formData?: FormValues) {
      if (!deepEquals(candidate, schema)) {
        return { validationError: new Error('This validator knows only its own form schema.') };
      }
      return { errors: toErrorList(errorSchemaOf(formData)) as Result[] };
    },
  };
  return { schema, validator };
}
