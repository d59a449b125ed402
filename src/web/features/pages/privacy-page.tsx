import { Link } from 'react-router';
import { PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /privacy */
export function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      lastUpdated="27 January 2025"
      intro="People bring their most private thoughts to Harbour Mind. This policy explains, in plain words, what we collect, why, and the control you have."
    >
      <PolicySection id="who" title="Who we are">
        <p>
          Harbour Mind is the controller of the personal data described here. You can contact us about privacy at{' '}
          <a href="mailto:privacy@harbourmind.app">privacy@harbourmind.app</a>.
        </p>
      </PolicySection>
      <PolicySection id="collect" title="What we collect">
        <ul>
          <li>
            <strong>Account details</strong>: your name and email address, and how you signed in (email, Apple or Google).
          </li>
          <li>
            <strong>Subscription status</strong>: whether you have a trial or subscription, your plan and renewal dates, received from our payment providers (Stripe
            on the web, Apple on iOS). We never see or store your full card number.
          </li>
          <li>
            <strong>Listening activity</strong>: the meditations you complete and the favourites you save, so we can show your practice and keep them in sync across
            your devices.
          </li>
          <li>
            <strong>Technical data</strong>: security logs (such as sign-in attempts and the IP address they came from) and anonymous usage analytics.
          </li>
        </ul>
        <p>
          <strong>Your journal entries and routine progress stay on your device.</strong> They are stored in your browser or app, not on our servers, and we cannot
          read them.
        </p>
      </PolicySection>
      <PolicySection id="why" title="Why we use it">
        <ul>
          <li>To provide the service you signed up for (contract).</li>
          <li>To take payment and manage your subscription (contract and legal obligation).</li>
          <li>To keep accounts secure and prevent abuse (legitimate interests).</li>
          <li>To understand, in aggregate, which parts of the app help people, so we can improve it (legitimate interests).</li>
          <li>To send service emails such as verification and password resets. We only send marketing if you have opted in.</li>
        </ul>
      </PolicySection>
      <PolicySection id="retention" title="How long we keep it">
        <ul>
          <li>Analytics data is retained for up to 2 years.</li>
          <li>When you delete your account, your account data is erased within 30 days, except where the law requires us to keep records (for example, invoices).</li>
          <li>Security logs are kept only as long as needed to protect the service.</li>
        </ul>
      </PolicySection>
      <PolicySection id="sharing" title="Who we share it with">
        <p>
          We use carefully chosen processors to run Harbour Mind: payment providers, an email delivery service and our hosting provider. They act only on our
          instructions and under contract. We never sell your personal data. Where data is processed outside the UK, we rely on adequacy decisions or the UK's
          International Data Transfer Agreement.
        </p>
      </PolicySection>
      <PolicySection id="security" title="How we protect it">
        <p>
          Data is encrypted in transit and at rest. Passwords are stored only as secure hashes. Access inside Harbour Mind is limited to the people who need it, and
          every administrative action is logged.
        </p>
      </PolicySection>
      <PolicySection id="children" title="Children">
        <p>
          Harbour Mind is not intended for children under 13. People aged 13 to 16 may need a parent's or guardian's consent to use it, depending on where they live.
        </p>
      </PolicySection>
      <PolicySection id="rights" title="Your rights">
        <p>
          Under UK data protection law you can ask to access, correct, delete or receive a copy of your data, and object to or restrict how we use it. Write to{' '}
          <a href="mailto:privacy@harbourmind.app">privacy@harbourmind.app</a> and we will respond within one month. You can also complain to the Information
          Commissioner's Office (ico.org.uk).
        </p>
      </PolicySection>
      <PolicySection id="cookies" title="Cookies and on-device storage">
        <p>
          See our <Link to="/cookies">Cookie Policy</Link>.
        </p>
      </PolicySection>
      <PolicySection id="changes" title="Changes to this policy">
        <p>We will give you 30 days' notice by email or in the app before any material change takes effect.</p>
      </PolicySection>
    </StaticPage>
  );
}
