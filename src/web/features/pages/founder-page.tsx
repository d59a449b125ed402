import { Link } from 'react-router';
import { NoteCard, PolicySection, StaticPage } from '#web/features/pages/static-page.tsx';

/** /why-i-created-harbour-mind: the founder's note. */
export function FounderPage() {
  return (
    <StaticPage title="Why I Created Harbour Mind" intro="A note from the doctor who started Harbour Mind: where it came from, what it is for, and what it is not.">
      <PolicySection id="inspiration" title="What inspired it">
        <p>
          For many years I have worked as a doctor in mental health in the UK. I have sat with people on some of the hardest days of their lives, and on a great many
          ordinary days that were hard in quieter ways: the night before a scan, the first week after a diagnosis, the birthday that arrives without someone, the
          Monday morning that feels too heavy to lift.
        </p>
        <p>
          Again and again I noticed the same thing. Between appointments, people were mostly on their own. The clinic could offer an hour; life asked for the other
          hundred and sixty-seven. What helped in those hours was rarely dramatic. It was a few slow breaths before getting out of bed. A kind sentence to return to
          when the mind started racing. A way to settle the body at night that did not depend on anybody else being awake.
        </p>
        <p>
          I also noticed who was left out. Many wellbeing apps seem to be made for people who are already well and want to be a little more productive. Far fewer are
          made for someone with endometriosis who is planning her day around pain, or someone with fibromyalgia whose body is tired before the day has begun.
          Harbour Mind began as my attempt to make something for them, and for anyone who needs a calm place to come back to.
        </p>
      </PolicySection>

      <PolicySection id="beliefs" title="What I believe">
        <ul>
          <li>
            <strong>Small practices, repeated kindly, change things.</strong> Five minutes you actually do is worth more than an hour you feel guilty about.
          </li>
          <li>
            <strong>Your body is not the enemy.</strong> Even when it hurts, it deserves attention that is patient rather than punishing.
          </li>
          <li>
            <strong>Feelings are information, not instructions.</strong> We can notice them, name them and choose what to do next.
          </li>
          <li>
            <strong>Nobody should be shamed for a missed day.</strong> Coming back is the practice.
          </li>
          <li>
            <strong>Your private thoughts are yours.</strong> That is why your journal is encrypted on your device, with a passphrase only you know, before it is stored.
          </li>
        </ul>
      </PolicySection>

      <PolicySection id="different" title="What makes Harbour Mind different">
        <p>
          Harbour Mind is written with real lives in mind. There are meditations for mornings and for sleep, but also for flare days, for waiting rooms, for the
          anniversary nobody else remembers, and for the big chapters: a birthday, a new job, a move, a loss. The chronic-conditions collection was shaped with
          people living with long-term illness, and every practice in it can be done lying down, sitting, or however your body needs it today.
        </p>
        <p>
          Alongside the meditations there is a daily affirmation, a private journal with mindfulness, CBT-informed and DBT-informed prompts, and gentle morning and
          evening routines you can make your own. Nothing is built to keep you scrolling. When you are done, you are done.
        </p>
      </PolicySection>

      <PolicySection id="not-clinical" title="What Harbour Mind is not">
        <NoteCard tone="amber">
          <p>
            Harbour Mind is a wellbeing tool. It is <strong>not a clinical service</strong>: it is not therapy, it does not diagnose or treat any condition, and it is
            not a replacement for your GP, your mental-health team or any treatment you are receiving. It is not an emergency service.
          </p>
          <p>
            If you are in crisis or worried about your safety, please call 999 or go to A&amp;E, call NHS 111, or ring Samaritans free, any time, on 116 123.
          </p>
        </NoteCard>
        <p>
          I say this plainly because I care about it. The practices here can sit beside good care; they should never stand in its way.
        </p>
      </PolicySection>

      <PolicySection id="hopes" title="What I hope you feel">
        <p>
          I hope you feel a little less alone. I hope that, for a few minutes, the noise recedes and you can hear yourself again. I hope you feel that your pace is
          acceptable, that your body is worth listening to, and that the hard chapter you may be living through is not the whole of your story.
        </p>
        <p>
          Most of all, I hope Harbour Mind feels like its name: a sheltered place to come in from the weather, rest for a while, and set out again when you are
          ready.
        </p>
        <p>
          If you would like to begin, <Link to="/meditations">browse the meditations</Link> or <Link to="/journal">open the journal</Link>. And if something here
          could be kinder or clearer, please <Link to="/support">tell us</Link>. We read every message.
        </p>
        <p className="font-serif text-lg font-semibold text-stone-800 dark:text-stone-200">— The founder of Harbour Mind</p>
      </PolicySection>
    </StaticPage>
  );
}
