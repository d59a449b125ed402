/**
 * sonner's toast, as a list of what it was asked to show ('success: Saved'), for tests of how the app
 * raises its messages: `vi.mock('sonner', () => import('#tests/setup/fake-sonner.ts'))`, then read
 * (and empty) `shown`.
 */
export const shown: string[] = [];

export const toast = {
  success: (message: string) => shown.push(`success: ${message}`),
  error: (message: string) => shown.push(`error: ${message}`),
  info: (message: string) => shown.push(`info: ${message}`),
  warning: (message: string) => shown.push(`warning: ${message}`),
};
