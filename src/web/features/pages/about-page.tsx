import { Link } from 'react-router';
import { PRICES_GBP, TRIAL_DAYS } from '#shared/constants.ts';
import { NoteCard, PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /about */
export function AboutPage() {
  return (
    <StaticPage
      title="About Harbour Mind"
      intro="Harbour Mind is a guided-meditation and wellbeing app for real, ordinary, sometimes difficult lives. It was created by a UK doctor working in mental health."
    >
      <PolicySection id="what" title="What you will find here">
        <ul>
          <li>
            <strong>Guided meditations by category</strong>: morning, sleep and rest, joy, emotional wellbeing, mindful awareness, intentional journalling,
            chronic conditions (including endometriosis and fibromyalgia) and significant chapters such as birthdays, beginnings and transitions.
          </li>
          <li>
            <strong>A daily affirmation</strong> on the home page, the same all day, fresh each morning.
          </li>
          <li>
            <strong>A private journal</strong> with mindfulness, CBT-informed and DBT-informed prompts, and a tracker to see your week. Your entries are encrypted
            end to end, so only you can read them, on any of your devices.
          </li>
          <li>
            <strong>Morning and evening routines</strong> you can build from gentle templates or write yourself.
          </li>
        </ul>
      </PolicySection>
      <PolicySection id="pricing" title="Trying it and paying for it">
        <p>
          Anyone can browse the meditation library. Listening is part of a subscription, which starts with a {TRIAL_DAYS}-day free trial. After that it is £
          {PRICES_GBP.monthly} a month or £{PRICES_GBP.yearly} a year, and you can cancel at any time from your account.
        </p>
      </PolicySection>
      <NoteCard tone="amber">
        <p>
          Harbour Mind is a wellbeing tool, not a clinical service. It does not diagnose or treat any condition and is not a substitute for professional care. If you
          are in distress, please speak to your GP or call NHS 111; in an emergency call 999. Samaritans are free, any time, on 116 123.
        </p>
      </NoteCard>
      <PolicySection id="next" title="Where to go next">
        <ul>
          <li>
            <Link to="/meditations">Browse the meditations</Link>
          </li>
          <li>
            <Link to="/journal">Open the journal</Link>
          </li>
          <li>
            <Link to="/why-i-created-harbour-mind">Read why Harbour Mind was created</Link>
          </li>
          <li>
            <Link to="/support">Get help or send us a message</Link>
          </li>
        </ul>
      </PolicySection>
    </StaticPage>
  );
}
