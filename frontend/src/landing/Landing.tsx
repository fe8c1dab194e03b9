import { Fragment } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { FEATURES, SLOGANS } from './content';
import { FeatureClip } from './FeatureClip';
import { Hero } from './Hero';
import { LandingBar } from './LandingBar';
import { Slogan } from './Slogan';
import { useReducedMotion } from './useInView';
import { useSession } from './useSession';

/** What a screen sending the visitor to /home may have it say (a closed account's answer). */
export interface LandingLocationState {
  notice?: string;
}

/**
 * The landing page (/home, public): a fixed top bar, the hero, six features each with a clip of
 * the product and a caption, two slogans between them, and a last call to action. A signed-in
 * traveller sees the same page with a way into the app instead of Log In and Sign Up.
 */
export function Landing() {
  const session = useSession();
  const reducedMotion = useReducedMotion();
  const notice = (useLocation().state as LandingLocationState | null)?.notice;

  return (
    <div className="landing">
      <LandingBar session={session} />

      <main className="landing-main">
        {notice ? (
          <p className="landing-notice" role="status">
            {notice}
          </p>
        ) : null}
        <Hero signedIn={session.signedIn} />

        <section id="features" className="features" aria-labelledby="features-title">
          <h2 id="features-title">Everything your travels need, in one place</h2>
          {FEATURES.map((feature, index) => {
            const slogan = SLOGANS.find((s) => s.after === index + 1);
            return (
              <Fragment key={feature.slug}>
                <FeatureClip feature={feature} index={index} reducedMotion={reducedMotion} />
                {slogan ? <Slogan text={slogan.text} sub={slogan.sub} /> : null}
              </Fragment>
            );
          })}
        </section>

        <section className="landing-closing" aria-labelledby="closing-title">
          <h2 id="closing-title">Where to next?</h2>
          <p>Pin the places you have been, and the ones still on your list.</p>
          {session.signedIn ? (
            <Link to="/trips" className="btn btn-primary btn-lg">
              Back to my map
            </Link>
          ) : (
            <Link to="/register" className="btn btn-primary btn-lg">
              Start your travel map
            </Link>
          )}
        </section>
      </main>

      <footer className="landing-footer">
        <p>© {new Date().getFullYear()} Wayfarer. Made for people who collect places.</p>
      </footer>
    </div>
  );
}
