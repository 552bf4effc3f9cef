import { describe, expect, it } from 'vitest';
import * as limits from '../../../../main/core/elicitation/limits.js';
import {
  MODEL_FIELDS_CEILING,
  MODEL_OPTIONS_CEILING,
  MODEL_TEXT_CEILING,
} from '../../../../preload/shared/form-model.js';

describe('the elicitation limits', () => {
  it('are the documented values for the form', () => {
    expect({ ...limits }).toMatchObject({
      MAX_PENDING_ELICITATIONS_PER_CONNECTION: 32,
      MAX_SCHEMA_BYTES: 65_536,
      MAX_PROPERTIES: 64,
      MAX_OPTIONS_PER_FIELD: 256,
      MAX_MESSAGE_CHARS: 4_000,
      MAX_TITLE_CHARS: 200,
      MAX_DESCRIPTION_CHARS: 2_000,
      MAX_PATTERN_CHARS: 1_000,
      MAX_STRING_DEFAULT_CHARS: 10_000,
      MAX_PROPERTY_NAME_CHARS: 128,
      MAX_OPTION_VALUE_CHARS: 500,
      MAX_FORMAT_NAME_CHARS: 64,
      MAX_PREVIEW_CHARS: 4_000,
    });
  });

  it('fit under the ceilings of the form model, so every model main makes crosses IPC', () => {
    const texts = [
      limits.MAX_TITLE_CHARS,
      limits.MAX_DESCRIPTION_CHARS,
      limits.MAX_PATTERN_CHARS,
      limits.MAX_STRING_DEFAULT_CHARS,
      limits.MAX_PROPERTY_NAME_CHARS,
      limits.MAX_OPTION_VALUE_CHARS,
      limits.MAX_FORMAT_NAME_CHARS,
      limits.MAX_PREVIEW_CHARS,
    ];
    for (const max of texts) {
      expect(max).toBeLessThanOrEqual(MODEL_TEXT_CEILING);
    }
    expect(limits.MAX_PROPERTIES).toBeLessThanOrEqual(MODEL_FIELDS_CEILING);
    expect(limits.MAX_OPTIONS_PER_FIELD).toBeLessThanOrEqual(MODEL_OPTIONS_CEILING);
  });
});
