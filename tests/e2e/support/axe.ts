/**
 * axe-core (the engine behind Lighthouse's and the browsers' accessibility checks) run in the page
 * as it is: every rule axe enables by default, WCAG 2.x A/AA and its best practices. The script is
 * evaluated through the DevTools protocol, so the page's Content-Security-Policy stays as shipped.
 */
import axeCore from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = axeCore.source;

export type AxeFinding = { page: string; rule: string; impact: string | null; help: string; targets: string[]; why: string };

type AxeResults = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] };

/** Every violation on the page as it is now (or of the given rules only), one finding per rule with the elements it names. */
export async function axeFindings(page: Page, label: string, { rules }: { rules?: string[] } = {}): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  // With a modal dialog open, the page behind it is dimmed and inert (aria-hidden): what a person
  // can read and use is the dialog, so that is what is checked (the page itself is checked without it).
  const results = await page.evaluate((only) => {
    const modal = document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]');
    return (window as unknown as { axe: { run(context: Element | Document, options: object): Promise<AxeResults> } }).axe.run(modal ?? document, { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) });
  }, rules ?? null);
  return results.violations.map((violation) => ({
    page: label,
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    why: violation.nodes[0]?.failureSummary ?? '',
  }));
}
