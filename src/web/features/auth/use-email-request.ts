/**
 * A form that asks for an e-mail address and sends one message to it (a password reset link, a new
 * verification link): the address checked with the spec's validator, one request at a time, the
 * server's words on failure, and the address it went to once sent.
 */
import { useState, type SubmitEvent } from 'react';
import { MESSAGES } from '#shared/messages.ts';
import { validateEmail } from '#shared/validation.ts';
import { ApiError } from '#web/lib/api.ts';

export function useEmailRequest(send: (address: string) => Promise<unknown>) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (pending) return;
    const check = validateEmail(email);
    if (!check.valid) {
      setError(check.error);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const address = email.trim().toLowerCase();
      await send(address);
      setSentTo(address);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MESSAGES.auth.tryLater);
    } finally {
      setPending(false);
    }
  };
  /** Back to an empty form (a dialog closed). */
  const reset = () => {
    setSentTo(null);
    setError(null);
  };
  return { email, setEmail, error, pending, sentTo, submit, reset };
}
