import Mail from 'lucide-react/icons/mail';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SUPPORT_EMAIL, TRIAL_DAYS } from '#shared/constants.ts';
import { Accordion, AccordionItem } from '#web/components/ui/accordion.tsx';
import { NoteCard, PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

const FAQ: Array<{ q: string; a: ReactNode }> = [
  {
    q: 'How do I cancel my subscription?',
    a: (
      <p>
        Go to <Link to="/account">Account</Link> › Subscription Management (the Settings tab) and choose Cancel. You keep access until the end of the period you
        have paid for. If you subscribed through the App Store, you can also cancel in your iPhone's Settings › Apple ID › Subscriptions.
      </p>
    ),
  },
  {
    q: 'Can I listen offline?',
    a: <p>Yes. Premium subscribers can download meditations from their favourites and listen without a connection, on a plane, on a walk or in a waiting room.</p>,
  },
  {
    q: 'I have forgotten my password',
    a: (
      <p>
        On the <Link to="/sign-in">sign-in screen</Link>, choose the Forgot Password link and enter your email. We will email you a reset link that works for one
        hour. Setting a new password signs you out on your other devices.
      </p>
    ),
  },
  {
    q: 'Is my data safe?',
    a: (
      <p>
        Connections are encrypted, we use no analytics or advertising, and we never sell or share your data. Your journal is encrypted end to end on your device,
        so we cannot read it, and your routine progress stays on your device. You can download everything we hold about you, or delete your account, in Account › Settings › Your data. Read the{' '}
        <Link to="/privacy">privacy policy</Link> for the details.
      </p>
    ),
  },
  {
    q: 'Which devices are supported?',
    a: <p>Harbour Mind works in modern web browsers on computers, tablets and phones, and on iOS and Android.</p>,
  },
  {
    q: 'How does the free trial work?',
    a: (
      <p>
        New subscribers get {TRIAL_DAYS} days free. You will not be charged if you cancel before the trial ends. The trial is available once per account.
      </p>
    ),
  },
  {
    q: 'What should I do if I am in crisis?',
    a: (
      <p>
        Harbour Mind is not an emergency service. In the UK, if you or someone else is in danger call 999 or go to A&amp;E. For urgent help that is not an emergency
        call NHS 111. Samaritans are there for anyone, free, day or night, on 116 123.
      </p>
    ),
  },
];

/** /support: contact, FAQ and policy links. */
export function SupportPage() {
  return (
    <StaticPage title="Support and help centre" intro="Questions, problems or ideas: we are here, and real people read every message.">
      <NoteCard>
        <p className="flex flex-wrap items-center gap-2 text-lg">
          <Mail className="size-5 text-teal-700 dark:text-teal-300" aria-hidden />
          Email us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
        <p>We reply within 24 hours.</p>
      </NoteCard>

      <PolicySection id="faq" title="Frequently asked questions">
        <Accordion>
          {FAQ.map((item) => (
            <AccordionItem key={item.q} title={item.q}>
              {item.a}
            </AccordionItem>
          ))}
        </Accordion>
      </PolicySection>

      <PolicySection id="policies" title="Policies">
        <ul>
          <li>
            <Link to="/privacy">Privacy Policy</Link>
          </li>
          <li>
            <Link to="/terms">Terms of Service</Link>
          </li>
          <li>
            <Link to="/cookies">Cookie Policy</Link>
          </li>
        </ul>
      </PolicySection>
    </StaticPage>
  );
}
