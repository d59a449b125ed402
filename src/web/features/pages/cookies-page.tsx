import { Link } from 'react-router';
import { PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /cookies */
export function CookiesPage() {
  return (
    <StaticPage title="Cookie Policy" policy="cookies" intro="Harbour Mind uses as little as it can. Here is exactly what is stored, and why.">
      <PolicySection id="necessary" title="Strictly necessary cookie">
        <p>
          When you sign in, we set one first-party session cookie so you stay signed in. It is marked HttpOnly (scripts cannot read it) and is only sent to Harbour
          Mind. Without it, signing in would not work, so it does not need consent.
        </p>
      </PolicySection>
      <PolicySection id="device" title="Storage on your device">
        <p>Some features keep information in your browser's local storage or the app's storage, and it never leaves your device unless stated:</p>
        <ul>
          <li>today's affirmation and its date, so the same one shows all day;</li>
          <li>your morning and evening routine progress;</li>
          <li>while you are signed in, your journal, encrypted, with the key that opens it on this device (IndexedDB); signing out removes both;</li>
          <li>saved and downloaded meditations for offline listening (downloads are encrypted);</li>
          <li>small preferences, such as your colour theme and your last chosen tab.</li>
        </ul>
      </PolicySection>
      <PolicySection id="analytics" title="Analytics">
        <p>
          There are none. Harbour Mind uses no analytics, advertising or tracking cookies, and its pages load nothing from other companies' servers, so no third
          party can follow you here or across other sites.
        </p>
      </PolicySection>
      <PolicySection id="control" title="Your choices">
        <p>
          You can clear cookies and site data at any time in your browser's settings. Clearing site data signs you out and removes anything stored on the device,
          including downloads and this device's copy of your journal. Your encrypted journal stays in your account: unlock it again with your passphrase.
        </p>
      </PolicySection>
      <PolicySection id="changes" title="Changes">
        <p>
          We will give 30 days' notice before any material change to this policy. For how we handle personal data more broadly, see the{' '}
          <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </PolicySection>
    </StaticPage>
  );
}
