import { Link } from 'react-router-dom';

/** The decorative globe beside the headline: a dotted route between two pins. */
function HeroArt() {
  return (
    <svg className="hero-art" viewBox="0 0 420 420" aria-hidden="true" focusable="false">
      <defs>
        <radialGradient id="globe-fill" cx="38%" cy="32%" r="75%">
          <stop offset="0" stopColor="#1d2a52" />
          <stop offset="1" stopColor="#0c1228" />
        </radialGradient>
        <linearGradient id="route" x1="0" x2="1">
          <stop offset="0" stopColor="var(--accent)" stopOpacity=".35" />
          <stop offset="1" stopColor="var(--accent)" />
        </linearGradient>
      </defs>
      <circle cx="210" cy="210" r="170" fill="url(#globe-fill)" stroke="#2c3a66" />
      <g fill="none" stroke="#2c3a66" strokeWidth="1">
        <ellipse cx="210" cy="210" rx="60" ry="170" />
        <ellipse cx="210" cy="210" rx="120" ry="170" />
        <ellipse cx="210" cy="210" rx="170" ry="60" />
        <ellipse cx="210" cy="210" rx="170" ry="120" />
        <line x1="40" y1="210" x2="380" y2="210" />
        <line x1="210" y1="40" x2="210" y2="380" />
      </g>
      <path
        d="M108 268C140 170 220 150 262 186s58 22 62-66"
        fill="none"
        stroke="url(#route)"
        strokeWidth="3"
        strokeDasharray="2 9"
        strokeLinecap="round"
      />
      <g className="hero-pin">
        <circle cx="108" cy="268" r="7" fill="var(--accent)" />
        <circle cx="108" cy="268" r="14" fill="var(--accent)" opacity=".18" />
      </g>
      <circle cx="262" cy="186" r="6" fill="var(--text)" />
      <g transform="translate(306 64)">
        <path
          d="M18 0C8.1 0 0 7.8 0 17.4 0 30 18 46 18 46s18-16 18-28.6C36 7.8 27.9 0 18 0Z"
          fill="var(--accent)"
        />
        <circle cx="18" cy="17" r="7" fill="#0c1228" />
      </g>
    </svg>
  );
}

/** The headline, what Wayfarer is in two sentences, and the first call to action. */
export function Hero({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero-copy">
        <p className="eyebrow">Travel, mapped and shared</p>
        <h1 id="hero-title">Every journey deserves a place on the map.</h1>
        <p className="hero-lead">
          Record trips with dated destinations, photos and stories, keep a bucket list of places to
          see next, and follow your friends&apos; adventures on one shared world map.
        </p>
        <div className="hero-cta">
          {signedIn ? (
            <Link to="/trips" className="btn btn-primary btn-lg">
              Back to my map
            </Link>
          ) : (
            <Link to="/register" className="btn btn-primary btn-lg">
              Start your travel map
            </Link>
          )}
          <a href="#features" className="btn btn-ghost btn-lg">
            See what&apos;s inside
          </a>
        </div>
      </div>
      <HeroArt />
    </section>
  );
}
