/**
 * The spec's checks on a sign-in and a sign-up, in its order and words (consumer document 'Sign
 * In / Sign Up'): the first problem only, as the form shows one message at a time. The server runs
 * the same checks before better-auth sees the request; the form runs them to answer at once.
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { MESSAGES } from '#shared/messages.ts';
import { validateEmail, validateName } from '#shared/validation.ts';

const M = MESSAGES.auth;

export type Credentials = { name: string; email: string; password: string };
export type CredentialsProblem = { field: 'form' | keyof Credentials; message: string };

export function signInProblem({ email, password }: Omit<Credentials, 'name'>): CredentialsProblem | undefined {
  if (!email.trim() || !password) return { field: 'form', message: M.fillAllFields };
  const emailCheck = validateEmail(email);
  if (!emailCheck.valid) return { field: 'email', message: emailCheck.error };
  return undefined;
}

export function signUpProblem({ name, email, password }: Credentials): CredentialsProblem | undefined {
  if (!email.trim() || !password) return { field: 'form', message: M.fillAllFields };
  if (!name.trim()) return { field: 'name', message: M.fullNameRequired };
  const nameCheck = validateName(name);
  if (!nameCheck.valid) return { field: 'name', message: nameCheck.error };
  const emailCheck = validateEmail(email);
  if (!emailCheck.valid) return { field: 'email', message: emailCheck.error };
  if (password.length < MIN_PASSWORD_LENGTH) return { field: 'password', message: M.passwordTooShort };
  return undefined;
}

/** Changing a password (Account › Profile): both passwords given, the new one at the spec's length. */
export function changePasswordProblem({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }): string | undefined {
  if (!currentPassword || !newPassword) return M.fillAllFields;
  if (newPassword.length < MIN_PASSWORD_LENGTH) return M.passwordTooShort;
  return undefined;
}

const credentialsShape = z.object({ name: z.string(), email: z.string(), password: z.string() });

/** The sign-in or sign-up form's schema: its one problem, reported on the field it concerns ('root' for the form). */
export function credentialsFormSchema(mode: 'signin' | 'signup') {
  return credentialsShape.superRefine((values, ctx) => {
    const problem = mode === 'signin' ? signInProblem(values) : signUpProblem(values);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field === 'form' ? 'root' : problem.field], message: problem.message });
  });
}
