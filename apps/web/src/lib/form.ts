import { newPasswordProblem } from '@latchkey/contracts/client';
import { schemaResolver, type UseFormReturnType } from '@mantine/form';

/**
 * Forms keep message keys as their errors (the contracts' schemas and rules speak in keys); this
 * gives a Mantine input its value, handlers and the error in the admin's language.
 */
export function fieldProps<V extends Record<string, unknown>>(
  form: UseFormReturnType<V>,
  path: keyof V & string,
  t: (key: string) => string,
  options?: { type?: 'input' | 'checkbox' },
) {
  const props = form.getInputProps(path, options);
  const error = props.error;
  return { ...props, error: typeof error === 'string' ? t(error) : undefined };
}

/** The props of `NewPasswordFields` for a form whose fields are `password` and `again`. */
export function newPasswordFieldProps<V extends { password: string; again: string }>(
  form: UseFormReturnType<V>,
  t: (key: string) => string,
) {
  const password = fieldProps(form, 'password', t);
  const again = fieldProps(form, 'again', t);
  return {
    password: form.values.password,
    again: form.values.again,
    onPassword: (v: string) => password.onChange(v),
    onAgain: (v: string) => again.onChange(v),
    passwordError: password.error,
    againError: again.error,
  };
}

/** A new password and its retype as form errors: the contracts' one rule, on whichever field it names. */
export function newPasswordErrors(password: string, again: string): Record<string, string> {
  const problem = newPasswordProblem(password, again);
  return problem ? { [problem.field]: problem.key } : {};
}

/** A form validated by a contract's zod schema (zod implements Standard Schema): errors are its message keys. */
export const bySchema = (schema: Parameters<typeof schemaResolver>[0]) => schemaResolver(schema, { sync: true });
