// @vitest-environment jsdom
/** The sign-up form sends what is on screen, even a field changed without an input event (autofill). */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthForm } from '#web/features/auth/auth-form.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('sign-up form', () => {
  it('checks and sends the fields as shown, not the last values it heard about', async () => {
    // As the server answers: no providers, a visitor, and a new account waiting for its address to be confirmed.
    const fetch = answerFetch((url) =>
      url.includes('/api/auth-providers')
        ? json({ google: false, apple: false })
        : url.includes('/api/me')
          ? json({ user: null, role: null, subscribed: false })
          : json({ user: { id: 'u1', email: 'nora@example.com', name: 'Pat Lee', emailVerified: false, image: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' } }),
    );
    renderWithQueries(
      <MemoryRouter>
        <AuthForm initialMode="signup" />
      </MemoryRouter>,
    );
    const name = screen.getByLabelText('Full Name');
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    fireEvent.input(name, { target: { value: 'Pat Lee' } });
    fireEvent.input(email, { target: { value: 'a@b.co' } });
    fireEvent.input(password, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Password must be at least 6 characters long');

    // Autofill (or a password manager) changes the fields without an input event.
    (email as HTMLInputElement).value = 'nora@example.com';
    (password as HTMLInputElement).value = 'another-1';
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const signUp = () => fetch.mock.calls.find(([url]) => url.includes('/api/auth/sign-up/email'));
    await vi.waitFor(() => expect(signUp()).toBeDefined(), { timeout: 10_000 });
    expect(JSON.parse(signUp()![1]!.body as string)).toMatchObject({ name: 'Pat Lee', email: 'nora@example.com', password: 'another-1' });
  });
});
