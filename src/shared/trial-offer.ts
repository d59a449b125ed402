/**
 * The trial in words, where a visitor meets it (the locked dialog) and where a trial's end is shown
 * (issue 17). Apart from billing.ts, which every first load carries, because only later screens say these.
 */
import { PRICES_GBP, TRIAL_DAYS, TRIAL_REMINDER_DAYS_BEFORE } from '#shared/constants.ts';

/** The yearly plan's price as a month's share, as a person compares it (£39.99 a year → £3.33). */
const YEARLY_PER_MONTH_GBP = Math.floor((PRICES_GBP.yearly / 12) * 100) / 100;

/** The offer in one line, where a locked meditation meets a visitor (issue 17; decision 0025). */
export const TRIAL_OFFER_TEXT = `${TRIAL_DAYS} days free, then £${PRICES_GBP.yearly.toFixed(2)} a year (£${YEARLY_PER_MONTH_GBP.toFixed(2)} a month)`;
/** Said wherever a trial's end date is shown (the e-mail itself: server/features/billing/trial-reminders.ts). */
export const TRIAL_REMINDER_PROMISE = `We'll e-mail you ${TRIAL_REMINDER_DAYS_BEFORE} days before.`;
export const START_TRIAL_LABEL = `Start ${TRIAL_DAYS}-day free trial`;
