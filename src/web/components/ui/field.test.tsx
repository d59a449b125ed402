// @vitest-environment jsdom
/** The show/hide toggle names what the field holds (issue 38: the journal's passphrase said 'Show password'). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Field } from '#web/components/ui/field.tsx';

afterEach(cleanup);

it('says passphrase on a passphrase field, and password by default', () => {
  render(
    <>
      <Field label="Passphrase" type="password" secret="passphrase" />
      <Field label="Password" type="password" />
    </>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Show passphrase' }));
  expect(screen.getByRole('button', { name: 'Hide passphrase' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
});
