/**
 * RJSF's number field, with the locale's decimal separator looked up once.
 *
 * @rjsf/core's `NumberField` asks `getDecimalSeparator()` on every render, which builds an
 * `Intl.NumberFormat` each time: a 20-field form spent more time there than in drawing its
 * inputs, and paid it again on every keystroke. This field behaves as RJSF's does (the text
 * typed stays as typed, "1." and "1.50" included; the locale's separator is read as a point;
 * a number from the form data is shown with the locale's separator in the text widget) with
 * the separator cached for the page's life.
 */
import { useCallback, useState } from 'react';
import { asNumber, getDecimalSeparator, type FieldProps } from '@rjsf/utils';

let separator: string | undefined;

/** The locale's decimal separator, computed on first use. */
export function decimalSeparator(): string {
  separator ??= getDecimalSeparator();
  return separator;
}

// A value that ends in a point or in zeros after one: kept as typed, sent without them.
const TRAILING_WITH_POINT = /\.([0-9]*0)*$/;
const TRAILING = /[0.]0*$/;

/** The form data for what the user typed: a number where the text is one, else the text. */
export function typedNumber(typed: unknown): unknown {
  const standard = typeof typed === 'string' ? typed.replace(decimalSeparator(), '.') : typed;
  const normal = `${standard}`.startsWith('.') ? `0${standard}` : standard;
  return typeof normal === 'string' && TRAILING_WITH_POINT.test(normal)
    ? asNumber(normal.replace(TRAILING, ''))
    : asNumber(normal as string);
}

/**
 * What the input shows for `value`: the text last typed where it still reads as that value
 * ("1." for 1), else the value, written with the locale's separator.
 */
export function shownNumber(value: unknown, typed: unknown): unknown {
  if (typeof value !== 'number') {
    return value;
  }
  if (typeof typed === 'string') {
    const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`^(${escaped})?\\.?0*$`).test(typed.replace(decimalSeparator(), '.'))) {
      return typed;
    }
  }
  return decimalSeparator() === '.' ? value : String(value).replace('.', decimalSeparator());
}

/** A `number` or `integer` field: RJSF's string field, with the typed text kept readable. */
export function NumberField(props: FieldProps) {
  const { registry, onChange, formData } = props;
  const [typed, setTyped] = useState<unknown>(formData);
  // RJSF's registry always holds its string field.
  const StringField = registry.fields.StringField!;
  const handleChange = useCallback<FieldProps['onChange']>(
    (next, ...rest) => {
      setTyped(next);
      onChange(typedNumber(next), ...rest);
    },
    [onChange],
  );
  return <StringField {...props} formData={shownNumber(formData, typed)} onChange={handleChange} />;
}
