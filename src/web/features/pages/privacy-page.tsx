import { Link } from 'react-router';
import { PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /privacy */
export function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      policy="privacy"
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
            <strong>Technical data</strong>: security logs (such as sign-in attempts and the IP address they came from) and the devices you are signed in on. We do
            not use analytics, advertising or tracking of any kind, and Harbour Mind makes no requests to other companies' servers while you use it (paying through
            Stripe's checkout page, when you choose to, is the one exception).
          </li>
        </ul>
        <p>
          <strong>Your journal is end-to-end encrypted.</strong> Entries are encrypted on your device with a key that only your journal passphrase (or your
          recovery key) opens, before they are stored with us to follow you to your other devices. We hold only the sealed entries, how many there are and when
          they were stored: we cannot read a word of them, their dates or moods, and we cannot reset your passphrase. Routine progress stays on your device and is
          never sent to us. Signing out removes your journal and routine progress from that browser.
        </p>
      </PolicySection>
      <PolicySection id="why" title="Why we use it">
        <ul>
          <li>To provide the service you signed up for (contract).</li>
          <li>To take payment and manage your subscription (contract and legal obligation).</li>
          <li>To keep accounts secure and prevent abuse (legitimate interests).</li>
          <li>To send service emails such as verification and password resets. We only send marketing if you have opted in.</li>
        </ul>
      </PolicySection>
      <PolicySection id="retention" title="How long we keep it">
        <ul>
          <li>
            When you delete your account (Account › Settings › Your data), it is erased from the service at once: your profile, sign-in, devices, subscription record,
            favourites, practice, settings and your encrypted journal. Security log lines about you lose your name, email and IP address; our audit log keeps only that
            an account was deleted. Invoices are kept by Stripe or Apple, as the law requires of them.
          </li>
          <li>
            We keep backups so that Harbour Mind can come back after a failure. Your account leaves them within 30 days of its deletion, as older backups are
            deleted. Until then a backup is never used for anything but bringing the service back, and if we ever restore one, every account deleted after it was
            made is erased again before the service reopens: we keep a list of the deleted accounts' internal numbers for this, with nothing that says who you were.
          </li>
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
          Connections to Harbour Mind are encrypted (TLS). Meditations you download for offline listening are encrypted on your device. Your journal is encrypted
          end to end: on your device, before it is sent. Passwords are stored only as secure hashes. Whether the rest of your data is also encrypted at rest depends on the disks and database it is
          kept on; if you use a copy of Harbour Mind run by someone else, ask them. Access inside Harbour Mind is limited to the people who need it, and every
          administrative action is logged.
        </p>
      </PolicySection>
      <PolicySection id="children" title="Children">
        <p>
          Harbour Mind is not intended for children under 13. People aged 13 to 16 may need a parent's or guardian's consent to use it, depending on where they live.
        </p>
      </PolicySection>
      <PolicySection id="rights" title="Your rights">
        <p>
          Under UK data protection law you can ask to access, correct, delete or receive a copy of your data, and object to or restrict how we use it. You can
          download a copy of your data and delete your account yourself, at any time, in Account › Settings › Your data. For anything else, write to{' '}
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
