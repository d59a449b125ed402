import { ScrollArea } from 'radix-ui';
import { Link } from 'react-router';
import { PRICES_GBP, TRIAL_DAYS } from '#shared/constants.ts';
import { PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /terms: the terms in a scroll area of 60% of the viewport height (spec). */
export function TermsPage() {
  return (
    <StaticPage title="Terms of Service" policy="terms" intro="The agreement between you and Harbour Mind, written to be read.">
      <ScrollArea.Root className="h-[60vh] overflow-hidden rounded-3xl bg-white ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
        <ScrollArea.Viewport className="h-full w-full px-6 pb-6" tabIndex={0} aria-label="Terms of Service text">
          <PolicySection id="acceptance" title="1. Accepting these terms">
            <p>By creating an account or using Harbour Mind you agree to these terms. If you do not agree, please do not use the service.</p>
          </PolicySection>
          <PolicySection id="service" title="2. The service">
            <p>
              Harbour Mind provides guided meditations, a daily affirmation, a journal and routine tools for personal wellbeing. We may improve, change or retire
              features, and will tell you in advance about changes that materially affect you.
            </p>
          </PolicySection>
          <PolicySection id="not-advice" title="3. Not medical advice">
            <p>
              Harbour Mind is a wellbeing tool, not a clinical service. It does not diagnose, treat or cure any condition and is not a substitute for professional
              medical or psychological care. Always follow the advice of your healthcare professionals. In an emergency call 999.
            </p>
          </PolicySection>
          <PolicySection id="eligibility" title="4. Who can use Harbour Mind">
            <p>You must be at least 13 years old. If you are between 13 and 16, you may need a parent's or guardian's consent.</p>
          </PolicySection>
          <PolicySection id="accounts" title="5. Your account">
            <p>Keep your password private and tell us straight away if you think someone else has used your account. You are responsible for activity under it.</p>
          </PolicySection>
          <PolicySection id="subscriptions" title="6. Subscriptions, trials and cancelling">
            <ul>
              <li>New subscribers get a {TRIAL_DAYS}-day free trial, once per account.</li>
              <li>
                After the trial, the subscription costs £{PRICES_GBP.monthly} a month or £{PRICES_GBP.yearly} a year and renews automatically until you cancel.
              </li>
              <li>Cancel before the trial ends and you will not be charged. If you cancel later, you keep access until the end of the period you have paid for.</li>
              <li>Purchases made through the App Store are billed and managed by Apple under Apple's terms.</li>
              <li>We will give at least 30 days' notice of any price change, and you can cancel before it applies.</li>
            </ul>
          </PolicySection>
          <PolicySection id="use" title="7. Acceptable use">
            <p>Please do not misuse the service: no attempts to break its security, scrape or resell content, or interfere with other people's use of it.</p>
          </PolicySection>
          <PolicySection id="licence" title="8. Our content">
            <p>
              Meditations, scripts, audio and design belong to Harbour Mind or its licensors. While you subscribe, you may use them for your own personal,
              non-commercial wellbeing, including offline downloads in the app.
            </p>
          </PolicySection>
          <PolicySection id="your-content" title="9. Your content">
            <p>Your journal entries and routines are yours. Your journal is encrypted on your device before we store it, so we cannot read it; your routines stay on your device.</p>
          </PolicySection>
          <PolicySection id="termination" title="10. Ending the agreement">
            <p>
              You can stop using Harbour Mind and delete your account at any time. We may suspend accounts that break these terms, and will explain why unless the
              law prevents us.
            </p>
          </PolicySection>
          <PolicySection id="liability" title="11. Our responsibility to you">
            <p>
              We provide the service with reasonable care and skill. Nothing in these terms limits your statutory rights as a UK consumer or our liability where the
              law does not allow it to be limited.
            </p>
          </PolicySection>
          <PolicySection id="changes" title="12. Changes to these terms">
            <p>We will give you 30 days' notice of material changes. Continuing to use Harbour Mind after that means you accept the updated terms.</p>
          </PolicySection>
          <PolicySection id="law" title="13. Governing law">
            <p>These terms are governed by the law of England and Wales. If you live elsewhere in the UK, you may also bring proceedings where you live.</p>
          </PolicySection>
          <PolicySection id="contact" title="14. Contact">
            <p>
              Questions about these terms? Email <a href="mailto:support@harbourmind.app">support@harbourmind.app</a> or visit <Link to="/support">Support</Link>.
            </p>
          </PolicySection>
        </ScrollArea.Viewport>
        <ScrollArea.Scrollbar orientation="vertical" className="flex w-2.5 touch-none select-none p-0.5">
          <ScrollArea.Thumb className="relative flex-1 rounded-full bg-stone-300 dark:bg-stone-600" />
        </ScrollArea.Scrollbar>
      </ScrollArea.Root>
    </StaticPage>
  );
}
